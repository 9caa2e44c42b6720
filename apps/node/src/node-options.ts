/**
 * Whether the Node.js running this process was given the V8 option `flag` (`--max-semi-space-size`)
 * on its command line or in NODE_OPTIONS, spelt with dashes or underscores, with or without a value.
 */
export function nodeOptionGiven(flag: string, execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env.NODE_OPTIONS ?? ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((option) => {
    const spelt = option.replace(/_/g, '-');
    return spelt === flag || spelt.startsWith(`${flag}=`);
  });
}
