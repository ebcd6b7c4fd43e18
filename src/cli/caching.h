/* The result cache as the command line uses it: where the cache folder is,
 * when the cache is off, and linting one file through it. */
#ifndef OOM_CLI_CACHING_H
#define OOM_CLI_CACHING_H

#include <stddef.h>

#include "cache/store.h"
#include "cli/cli.h"
#include "cli/files.h"
#include "util/buf.h"

typedef struct {
  cache_store *store; /* NULL: no cache this run */
  const oom_linter *linter;
  char *cwd;  /* absolute: relative paths are keyed from it */
  char *root; /* the project root: entries are keyed relative to it */
} cli_cache;

/** Open the cache of a check run, unless C turns it off (--no-cache, --fix,
 *  --diff). The folder is --cache-dir, else $OOMLINT_CACHE_DIR, else
 *  .oomlint_cache in the project root: the folder of the configuration file
 *  in effect, else the current folder. A folder that cannot be made or
 *  written only turns the cache off: it is never worth failing a lint for. */
void cli_cache_open(cli_cache *self, const cli *c, const oom_linter *linter);

/** Lint file INDEX of FILES through the cache (its stat from the walk
 *  serves as its stamp): an entry whose
 *  stamp shows the file unchanged is taken without reading the file when it
 *  holds no diagnostics, and otherwise after checking the content hash;
 *  anything else is linted with W. When the cache must learn something (a
 *  new result, a newer stamp), the entry is left in FRESH. Returns NULL with
 *  WHY (size WHYLEN) when the file cannot be read. W may be NULL while the
 *  rules are not compiled: then NULL, WHY empty, when the cache cannot
 *  answer after all (a file rewritten keeping its time, the entry no longer
 *  fits). Safe on several threads at once, each with its own W and FRESH. */
oom_document *cli_cache_lint(const cli_cache *self, oom_worker *w, const file_list *files, size_t index, buf *fresh,
                             char *why, size_t whylen);

/** The first pass of a run: what the cache answers for file INDEX without
 *  linting, so that the rule patterns are compiled only when something must
 *  be linted. Returns the document when it is at hand (a file without
 *  diagnostics, or one hashed because its stamp changed); NULL with *LATER
 *  when the stamp vouches for an entry with diagnostics, whose text
 *  cli_cache_lint reads later (the emitters print its lines; reading it
 *  then keeps one document at a time in memory); NULL otherwise: it must be
 *  linted. */
oom_document *cli_cache_probe(const cli_cache *self, const file_list *files, size_t index, buf *fresh, bool *later);

/** Write the cache back if any of FRESH (N entries) holds something, and
 *  free everything. */
void cli_cache_close(cli_cache *self, buf *fresh, size_t n);

#endif
