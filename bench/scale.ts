/** `pnpm bench --scale`: written next. */
export async function runScale(): Promise<void> {
  throw new Error('not yet');
}
