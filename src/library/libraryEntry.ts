/**
 * One scenario of the scenario library (docs/library/): the question it answers, the CLI
 * command that answers it, which of the command's figures answer it, how the page shows
 * them, and what a reader should conclude. Everything a page shows is computed from the
 * figures, so `npm run library` regenerates the pages from a fresh run and the library test
 * can hold the published figures to a fresh run.
 */

/** The CLI command an entry runs on its scenario file (`scenarios/library/<name>.yaml`). */
export type LibraryCommand =
  | {
      readonly kind: 'run';
      /**
       * Further runs of the entry's own scenario, one per list of extra arguments (`--set
       * PATH=VALUE`), so one entry can set runs of a swept key side by side when a sweep's
       * figures are not enough (a run's curves.csv: `cdnsim sweep` keeps no curves). Their
       * output folders are `figures`' third argument, in this order.
       */
      readonly variants?: readonly (readonly string[])[];
    }
  | { readonly kind: 'compare'; readonly args?: readonly string[] }
  | { readonly kind: 'sweep'; readonly args: readonly string[] }
  | {
      readonly kind: 'plan';
      readonly args: readonly string[];
      /**
       * A second library scenario (`scenarios/library/<twin>.yaml`) the same command plans
       * too, so one entry can set two models' answers side by side (a traffic model against
       * its Zipf twin); its output folder is `figures`' second argument.
       */
      readonly twin?: string;
    };

/** A chart the command draws into its output folder (`charts/<file>`), published as docs/library/images/<name>-<file>. */
export interface LibraryChart {
  readonly file: string;
  readonly alt: string;
}

/**
 * A conclusion as a sentence and the condition on the figures that makes it true. When the
 * model changes and the condition no longer holds, `npm run library` and the library test
 * fail naming the sentence, so the text is rewritten instead of going stale.
 */
export interface Conclusion {
  readonly text: string;
  readonly holds: boolean;
}

/** Key figures: plain JSON (numbers as the command's outputs round them), compared exactly. */
export type Figures = Readonly<Record<string, unknown>>;

export interface LibraryEntry<F extends Figures = Figures> {
  /** Names the scenario file, the page, the published figures and the images. */
  readonly name: string;
  readonly title: string;
  /** The user's question, one sentence. */
  readonly question: string;
  readonly command: LibraryCommand;
  readonly charts: readonly LibraryChart[];
  /** The key figures, read from the command's output folder (and the twin's, or the variants', when the command has them). */
  figures(folder: string, twinFolder?: string, variantFolders?: readonly string[]): F;
  /** The results section (Markdown tables) for these figures. */
  results(figures: F): string;
  conclusions(figures: F): readonly Conclusion[];
}
