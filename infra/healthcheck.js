// Container health check without curl in the image: exit 0 when /readyz answers 200.
const url = process.argv[2];
fetch(url, { signal: AbortSignal.timeout(2000) })
  .then((res) => process.exit(res.ok ? 0 : 1))
  .catch(() => process.exit(1));
