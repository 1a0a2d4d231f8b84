/** What `pnpm cli --help` prints: every command, its flags, the exit codes. */
export const HELP = `Front Desk ops CLI. Every command uses DATABASE_URL, or the project's embedded PostgreSQL when it is unset.

Usage:
  pnpm cli migrate
      Bring the schema to the latest migration (safe to run from several places at once).
  pnpm cli pro create --name <name> --timezone <IANA zone> --zips <zip,zip> [--phone <p>] [--email <e>] [--owner <e>] [--website <url>] [--json]
      Create a cleaning business with the default price list and hours. Prints its key once.
      --email is the business's contact address and, unless --owner names another, its owner's: the
      address that signs in on the dashboard (one business per owner address).
  pnpm cli pro rotate-key --pro <pro_id> [--json]
      Revoke every key of the business and print a new one, once.
  pnpm cli pro set --pro <pro_id> [--name <n>] [--phone <p>] [--email <e>] [--owner <e>] [--website <url>] [--zips <zip,zip>]
                  [--hours <day>=closed|<day>=HH:MM-HH:MM[,HH:MM-HH:MM]]… [--price <name>=<USD>]… [--discount <frequency>=<pct>]…
                  [--travel-buffer <min>] [--slot-step <min>] [--min-notice-hours <h>] [--change '<update_business JSON>'] [--json]
      Change the business's settings, as update_business does (same checks; an empty value such as --phone '' removes it).
      --email changes only the contact address; --owner changes the address that signs in on the dashboard
      (its open dashboard sessions end; --owner '' leaves the business without one).
      --price names: base, per_bedroom, per_bathroom, minimum, pets_fee, crew_size. --change takes any other part
      (add_ons, clean_types, larger_home_surcharge) in the shape my_business shows. Lists booked jobs the change affects.
  pnpm cli pro time-off add --pro <pro_id> --start <YYYY-MM-DD|ISO> --end <YYYY-MM-DD|ISO> [--note <text>] [--json]
  pnpm cli pro time-off remove --pro <pro_id> --id <time_off_id> [--json]
  pnpm cli pro time-off list --pro <pro_id> [--json]
      Time off: whole local days by date (start and end included), or exact ISO 8601 times.
  pnpm cli crew list --pro <pro_id> [--json]
  pnpm cli crew add --pro <pro_id> --name <name> [--hours <day>=closed|<day>=HH:MM-HH:MM[,…]]… [--json]
  pnpm cli crew update --pro <pro_id> --crew <crew_id> [--name <name>] [--hours …]… [--business-hours] [--active yes|no] [--json]
  pnpm cli crew remove --pro <pro_id> --crew <crew_id> [--reassign-to <crew_id>] [--json]
      A business's crews, as add_crew, update_crew and remove_crew do them (same checks). A crew works
      the business's hours until --hours gives it its own (days not named keep theirs); --business-hours
      puts it back on the business's. --active no: it takes no new jobs. A crew with upcoming jobs is
      removed only with --reassign-to another crew free at every one of them (all move, or nothing does).
  pnpm cli pro check --pro <pro_id> --kind website --subject <site> [--failed] [--date YYYY-MM-DD] [--json]
  pnpm cli pro check --pro <pro_id> --kind marketplace --subject <platform> [--rating 4.8] [--reviews 120] [--failed] [--date …]
      Record a best-effort check as seen that day (default today): website ownership, or a
      marketplace profile and its rating. find_cleaners shows the newest of each.
  pnpm cli key create --email <email> [--json]
      Issue a customer's personal key for the booking service. Prints it once.
  pnpm cli oauth rotate-key [--json]
      Sign new access tokens with a new key; the old one keeps verifying until its tokens expire.
      Also seals every webhook secret again with the current KEY_ENCRYPTION_KEY (run it after rotating that key).
  pnpm cli demo [--json]
      Load the demo business (or give it a fresh key if it is there) and print its key.
  pnpm cli backup <file> [--json]
      Write the whole database to a new file in pg_dump's custom format (keys, sessions and tokens stay
      hashed, signing keys and webhook secrets sealed). Needs pg_dump and pg_restore of the server's major
      version or newer, on PATH or in /usr/lib/postgresql/<version>/bin.
  pnpm cli restore <file> [--replace] [--json]
      Restore a backup into the database, in one transaction. The database must be empty (a new one is
      best) unless --replace, which drops and re-creates there everything the backup holds.
  pnpm cli --help

With --json a command prints one JSON object (pro create: pro_id, name, api_key; key create: key).
Exit codes: 0 done, 1 refused or failed (the reason is printed), 2 wrong usage.`;
