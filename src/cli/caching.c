/* This file contains the command line's use of the result cache (src/cache).
 *
 * The design, in short (the README's "Cache" section says it for users):
 * - one cache file per project root, settings and build, in
 *   <cache folder>/<version>/<key>; the key hashes the oomlint version and
 *   the binary's own stamp, the settings digest (rule files' full text,
 *   selection, budgets) and the root, so a change to any of them misses;
 * - entries keyed by the file's path relative to the root, holding the
 *   file's stamp (size, modification time, content hash) and the
 *   diagnostics as the lint left them (noqa applied, per-file ignores not:
 *   those are applied on every run, as after a lint);
 * - an unchanged file is known by stat(2) alone (the walk's), so a tree
 *   re-lints without reading its files; a file with diagnostics is read
 *   anyway, as the emitters print its lines; a file whose time changed, or
 *   was too recent to trust (stamp.h), is hashed and compared;
 * - a new or changed file is linted, and its entry written at the end of
 *   the run, with every other entry, to a temporary file renamed over the
 *   cache file: concurrent runs never see half a file, the last one wins;
 * - nothing is cached for stdin or when --fix or --diff change files. */
#include "cli/caching.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/folder.h"
#include "cache/hash.h"
#include "cache/settings.h"
#include "cache/stamp.h"
#include "cli/files.h"
#include "cli/notebook.h"
#include "util/alloc.h"


/* PATH made absolute from CWD, with "." and ".." folded and "//" merged,
 * by string work alone: no system call per file. */
static char *absolute(const char *cwd, const char *path) {
  buf in = {0};
  if (path[0] != '/') buf_puts(&in, cwd);
  buf_putc(&in, '/');
  buf_puts(&in, path);
  char *out = oom_xmalloc(in.len + 2);
  size_t n = 0;
  const char *p = in.data;
  while (*p) {
    while (*p == '/') p++;
    const char *s = p;
    while (*p && *p != '/') p++;
    size_t len = (size_t)(p - s);
    if (len == 0 || (len == 1 && s[0] == '.')) continue;
    if (len == 2 && s[0] == '.' && s[1] == '.') {
      while (n > 0 && out[n - 1] != '/') n--;
      if (n > 0) n--;
      continue;
    }
    out[n++] = '/';
    memcpy(out + n, s, len);
    n += len;
  }
  if (!n) out[n++] = '/';
  out[n] = '\0';
  buf_free(&in);
  return out;
}


/* The entry key of PATH: relative to the root when below it, else absolute. */
static char *key_of(const cli_cache *self, const char *path) {
  char *abs = absolute(self->cwd, path);
  size_t rl = strlen(self->root);
  if (rl > 1 && !strncmp(abs, self->root, rl) && abs[rl] == '/') memmove(abs, abs + rl + 1, strlen(abs + rl + 1) + 1);
  return abs;
}


/* What tells this build from others: the version, and the binary's own
 * stamp, so that a rebuilt oomlint whose analyses changed without a new
 * version number (a developer's build) never reads an older build's
 * results. */
static void identity(buf *out) {
  buf_printf(out, "oomlint %s", oom_version());
  struct stat st;
  if (stat("/proc/self/exe", &st) == 0)
    buf_printf(out, " exe %llu %llu %lld.%09ld", (unsigned long long)st.st_ino, (unsigned long long)st.st_size,
               (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
}


void cli_cache_open(cli_cache *self, const cli *c, const oom_linter *linter) {
  memset(self, 0, sizeof *self);
  if (c->no_cache || c->fix || c->diff) return;
  char *cwd = getcwd(NULL, 0);
  if (!cwd) return;
  self->linter = linter;
  self->cwd = cwd;
  self->root = c->cfg.path && c->cfg.dir ? absolute(cwd, c->cfg.dir) : absolute(cwd, ".");
  const char *env = getenv("OOMLINT_CACHE_DIR");
  char *dir;
  if (c->cache_dir) dir = absolute(cwd, c->cache_dir);
  else if (env && *env) dir = absolute(cwd, env);
  else {
    buf b = {0};
    buf_printf(&b, "%s/%s", strcmp(self->root, "/") ? self->root : "", CACHE_FOLDER_NAME);
    dir = oom_xstrdup(buf_str(&b));
    buf_free(&b);
  }
  char why[512];
  if (cache_folder_prepare(dir, oom_version(), why, sizeof why)) {
    buf id = {0}, sub = {0};
    identity(&id);
    uint64_t key = cache_store_key(buf_str(&id), cache_settings_digest(linter, NULL, 0), self->root);
    buf_printf(&sub, "%s/%s", dir, oom_version());
    self->store = cache_store_open(buf_str(&sub), key);
    buf_free(&id);
    buf_free(&sub);
  }
  free(dir);
}


/* The path of the file keyed KEY (LEN bytes), in OUT. */
static void path_of_key(const cli_cache *self, const char *key, size_t len, buf *out) {
  if (!(len && key[0] == '/')) {
    buf_puts(out, self->root);
    buf_putc(out, '/');
  }
  buf_append(out, key, len);
}


/* Whether the modules E's lint read are as they were: their stamps say so,
 * or their contents hash the same (then *RESTAMP: the entry should learn the
 * new stamps, so that the next run needs no reading). A module gone or
 * unreadable is a change. CLOCK_NS is when the run started (stamp.h). */
static bool deps_fresh(const cli_cache *self, const cache_entry *e, int64_t clock_ns, bool *restamp) {
  buf path = {0};
  bool fresh = true;
  for (uint32_t i = 0; i < e->ndeps && fresh; i++) {
    cache_dep d;
    cache_entry_dep(e, i, &d);
    buf_clear(&path);
    path_of_key(self, d.key, d.key_len, &path);
    struct stat st;
    if (stat(buf_str(&path), &st) != 0 || !S_ISREG(st.st_mode)) {
      fresh = false;
      break;
    }
    cache_stamp now;
    cache_stamp_from_stat(&st, clock_ns, &now);
    if (cache_stamp_unchanged(&d.stamp, &now)) continue;
    char why[256];
    size_t len = 0;
    char *text = files_read(buf_str(&path), &len, why, sizeof why);
    /* the project index hashes a module's text as the cache hashes files */
    fresh = text && cache_hash(text, len, 0) == d.stamp.content_hash;
    free(text);
    *restamp = true;
  }
  buf_free(&path);
  return fresh;
}


/* Append to FRESH the entry of KEY stamped NOW with DOC's diagnostics. Its
 * dependencies are those of OLD, the entry DOC was restored from, restamped;
 * else the modules DOC's lint read (the project index), stamped now. A
 * dependency that cannot be stamped leaves the file uncached. */
static void encode(const cli_cache *self, buf *fresh, const char *key, const cache_stamp *now, const cache_entry *old,
                   const oom_document *doc, int64_t clock_ns) {
  size_t n = old ? old->ndeps : oom_document_dependency_count(doc);
  cache_dep *deps = n ? oom_xcalloc(n, sizeof *deps) : NULL;
  char **keys = n ? oom_xcalloc(n, sizeof *keys) : NULL;
  buf path = {0};
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    uint64_t hash = 0;
    buf_clear(&path);
    if (old) {
      cache_dep d;
      cache_entry_dep(old, (uint32_t)i, &d);
      path_of_key(self, d.key, d.key_len, &path);
      hash = d.stamp.content_hash;
    } else {
      buf_puts(&path, oom_document_dependency(doc, i, &hash));
    }
    struct stat st;
    ok = stat(buf_str(&path), &st) == 0 && S_ISREG(st.st_mode);
    if (!ok) break;
    cache_stamp_from_stat(&st, clock_ns, &deps[i].stamp);
    deps[i].stamp.content_hash = hash;
    keys[i] = key_of(self, buf_str(&path));
    deps[i].key = keys[i];
    deps[i].key_len = strlen(keys[i]);
  }
  if (ok) cache_entry_encode(fresh, cache_store_file_key(self->store), key, now, deps, n, doc);
  for (size_t i = 0; i < n; i++) free(keys[i]);
  free(keys);
  free(deps);
  buf_free(&path);
}


/* cli_cache_lint, and cli_cache_probe with PROBING: then W is NULL, and a
 * file the stamp vouches for but whose text must be read is left for later
 * (*LATER), so that the first pass reads only what it must hash. */
static oom_document *answer(const cli_cache *self, oom_worker *w, const file_list *files, size_t index, buf *fresh,
                            char *why, size_t whylen, bool probing, bool *later) {
  const char *path = files->paths[index], *shown = path;
  cache_stamp now;
  /* the walk's stat: one stat(2) a file for the whole run. Not a regular
   * file (a FIFO, /dev/stdin): linted, never cached */
  bool cacheable = self->store && S_ISREG(files->stats[index].st_mode);
  if (cacheable) cache_stamp_from_stat(&files->stats[index], files->started_ns, &now);
  if (!cacheable && !w) return NULL;
  char *key = cacheable ? key_of(self, path) : NULL;
  const cache_entry *e = key ? cache_store_find(self->store, key) : NULL;
  /* an entry whose imported modules changed is no entry: the file's
   * diagnostics may have changed with them */
  bool restamp = false;
  if (e && !deps_fresh(self, e, files->started_ns, &restamp)) e = NULL;
  if (e && cache_stamp_unchanged(&e->stamp, &now)) {
    if (e->ndiags == 0) {
      free(key);
      return oom_document_new(shown, "", 0); /* nothing to print: no text needed */
    }
    if (probing) {
      free(key);
      *later = true;
      return NULL;
    }
  }
  size_t len = 0;
  char *text = files_read(path, &len, why, whylen);
  if (!text) {
    free(key);
    return NULL; /* asked only whether the cache knows: linting will tell */
  }
  /* the size recorded is what was read; the time is from before reading,
   * so a write in between shows as a changed time next run. A trusted,
   * unchanged stamp stands for the contents here too, as for a clean file
   * above: hashing would cost more than reading. A notebook's stamp is of
   * its file, its entry of the module linted from it */
  bool unchanged = e && cache_stamp_unchanged(&e->stamp, &now) && e->stamp.size == len;
  if (key) {
    now.size = len;
    now.content_hash = unchanged ? e->stamp.content_hash : cache_hash(text, len, 0);
  }
  oom_document *doc = cli_document(shown, text, len, why, whylen);
  if (!doc) {
    free(key);
    return NULL;
  }
  if (!key) {
    oom_document_lint(doc, w);
    return doc;
  }
  bool hit = e && e->stamp.size == len && e->stamp.content_hash == now.content_hash &&
             cache_entry_restore(e, self->linter, doc);
  if (hit || w) {
    if (!hit) oom_document_lint(doc, w);
    if (!hit || restamp || cache_stamp_differs(&e->stamp, &now)) encode(self, fresh, key, &now, hit ? e : NULL, doc, files->started_ns);
  } else {
    oom_document_free(doc); /* only asked whether the cache knows: it does not */
    doc = NULL;
    why[0] = '\0';
  }
  free(key);
  return doc;
}


oom_document *cli_cache_lint(const cli_cache *self, oom_worker *w, const file_list *files, size_t index, buf *fresh,
                             char *why, size_t whylen) {
  bool later = false;
  return answer(self, w, files, index, fresh, why, whylen, false, &later);
}


oom_document *cli_cache_probe(const cli_cache *self, const file_list *files, size_t index, buf *fresh, bool *later) {
  char why[256];
  *later = false;
  return answer(self, NULL, files, index, fresh, why, sizeof why, true, later);
}


/* Old entries of files this run did not lint stay while the file exists. */
static bool still_there(const cache_entry *e, void *arg) {
  const cli_cache *self = arg;
  buf path = {0};
  if (e->key_len && e->key[0] == '/') buf_append(&path, e->key, e->key_len);
  else {
    buf_printf(&path, "%s/", self->root);
    buf_append(&path, e->key, e->key_len);
  }
  bool there = access(buf_str(&path), F_OK) == 0;
  buf_free(&path);
  return there;
}


void cli_cache_close(cli_cache *self, buf *fresh, size_t n) {
  bool changed = false;
  for (size_t i = 0; i < n && !changed; i++) changed = fresh[i].len > 0;
  if (self->store && changed) {
    char why[512];
    /* a cache that cannot be written costs the next run time, nothing else */
    if (!cache_store_save(self->store, fresh, n, still_there, self, why, sizeof why)) { /* see above */ }
  }
  cache_store_free(self->store);
  free(self->cwd);
  free(self->root);
  memset(self, 0, sizeof *self);
}
