/** What the updates feed says about itself. */
export const cursorResetMessage = (since: number, head: number) =>
  `The cursor ${since} is ahead of this feed (the data was restored); it now points at the latest event, ${head}. Use the new cursor from now on.`;
