/* .gitignore rules for the directory walk: root and nested files, `!`
 * negations, `dir/` folder-only patterns, anchored `/x` and `**`. */
#ifndef OOM_CLI_IGNORE_H
#define OOM_CLI_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *pattern; /* without `!`, the leading `/` and the trailing `/` */
  char *base;    /* absolute folder of the .gitignore it came from */
  bool negate, dir_only, anchored;
} ignore_rule;

typedef struct {
  ignore_rule *items;
  size_t len, cap;
} ignore_set;

/** Append the rules of DIR/.gitignore (DIR absolute), if it exists. */
void ignore_load(ignore_set *set, const char *dir);
/** Load the .gitignore files from the repository root (the nearest folder
 *  above DIR holding `.git`) down to DIR's parent; nothing outside a repository. */
void ignore_load_parents(ignore_set *set, const char *dir);
/** Whether ABS_PATH is ignored: the last matching rule decides. */
bool ignore_match(const ignore_set *set, const char *abs_path, bool is_dir);
/** Drop the rules past the first LEN (those of a finished subtree). */
void ignore_truncate(ignore_set *set, size_t len);
/** Whether PATTERN matches PATH gitignore-style (`*` stops at `/`, `**` does not). */
bool ignore_glob(const char *pattern, const char *path);

#endif
