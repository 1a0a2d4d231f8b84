// Container health check without curl in the image: exit 0 when /readyz answers 200. The URL
// is the argument (compose gives each host's), else the image's own HEALTHCHECK asks the
// port HEALTHCHECK_PORT names (8080, pro-desk's, unless set).
const url = process.argv[2] ?? `http://127.0.0.1:${process.env.HEALTHCHECK_PORT ?? '8080'}/readyz`;
fetch(url, { signal: AbortSignal.timeout(2000) })
  .then((res) => process.exit(res.ok ? 0 : 1))
  .catch(() => process.exit(1));
