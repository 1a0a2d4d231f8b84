// Runs before each unit test file. The unit project promises no database: when the whole
// suite runs, the integration and e2e projects' PostgreSQL is up and its address is in the
// environment, so hide it here, and a unit test that reaches for a database fails as it
// would alone (`pnpm test:unit`) instead of passing by luck. (jest gives each test file its
// own copy of process.env: this changes nothing for other files.)
delete process.env.FD_TEST_ADMIN_URL;
delete process.env.FD_TEST_TEMPLATE;
