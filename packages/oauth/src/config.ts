// The public client's defaults are read with the rest of the settings (packages/config); the
// authorization server falls back on the same ones when a host's config leaves them out.
export { DEFAULT_PUBLIC_CLIENT_ID, DEFAULT_PUBLIC_CLIENT_REDIRECT_URIS } from '@frontdesk/config';
