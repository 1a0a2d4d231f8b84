// Settings are read in packages/config and the hosts' config modules; what stays here is
// how the HTTP kit recognises this machine.

export { isLoopbackHost } from '@frontdesk/domain';
