/* This file contains the making of the cache folder and its marker files.
 * Concurrent runs may make it at the same moment: every step accepts that
 * another process did it first. */
#include "cache/folder.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"

/* the signature is fixed by the Cache Directory Tagging Specification */
static const char CACHEDIR_TAG[] =
  "Signature: 8a477f597d28d172789f06886806bc55\n"
  "# This file is a cache directory tag created by oomlint.\n"
  "# For information about cache directory tags see https://bford.info/cachedir/\n";
static const char GITIGNORE[] = "# Automatically created by oomlint.\n*\n";


static bool mkdir_p(const char *dir) {
  char *p = oom_xstrdup(dir);
  bool ok = true;
  for (char *s = p + 1; ok; s++) {
    if (*s != '/' && *s != '\0') continue;
    char c = *s;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) ok = false;
    *s = c;
    if (!c) break;
  }
  free(p);
  struct stat st;
  return ok && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}


/* a marker file: written once, by whichever run gets there first */
static void write_marker(const char *dir, const char *name, const char *text) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *path = oom_xmalloc(n);
  snprintf(path, n, "%s/%s", dir, name);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd >= 0) {
    size_t len = strlen(text);
    /* a short write leaves a marker that still marks: nothing reads it back */
    if (write(fd, text, len) != (ssize_t)len) { /* nothing to undo */ }
    close(fd);
  }
  free(path);
}


bool cache_folder_prepare(const char *dir, const char *sub, char *why, size_t whylen) {
  size_t n = strlen(dir) + strlen(sub) + 2;
  char *full = oom_xmalloc(n);
  snprintf(full, n, "%s/%s", dir, sub);
  bool ok = mkdir_p(full);
  if (!ok) snprintf(why, whylen, "cannot make %s: %s", full, strerror(errno));
  free(full);
  if (!ok) return false;
  write_marker(dir, ".gitignore", GITIGNORE);
  write_marker(dir, "CACHEDIR.TAG", CACHEDIR_TAG);
  return true;
}
