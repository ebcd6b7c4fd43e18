/* This file contains atomic file replacement for --fix: write a temporary
 * file next to the original, flush it to disk, then rename it over. */
#include "cli/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"


static bool fail(char *why, size_t whylen, const char *what, int err) {
  snprintf(why, whylen, "%s: %s", what, strerror(err));
  return false;
}


static bool write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    len -= (size_t)n;
  }
  return true;
}


bool atomic_write(const char *path, const char *data, size_t len, char *why, size_t whylen) {
  char *target = realpath(path, NULL);
  if (!target) return fail(why, whylen, "cannot resolve the path", errno);
  struct stat st;
  if (stat(target, &st) != 0) {
    int err = errno;
    free(target);
    return fail(why, whylen, "cannot stat the file", err);
  }
  /* the temporary file must live in the same folder: rename(2) is atomic
   * only within one file system */
  const char *slash = strrchr(target, '/');
  size_t dirlen = slash ? (size_t)(slash - target) : 0;
  size_t tlen = dirlen + sizeof "/.oomlint-XXXXXX";
  char *tmp = oom_xmalloc(tlen);
  snprintf(tmp, tlen, "%.*s/.oomlint-XXXXXX", (int)dirlen, target);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int err = errno;
    free(tmp);
    free(target);
    return fail(why, whylen, "cannot create a temporary file beside it", err);
  }
  /* owner first: chown clears set-id bits that the mode then restores */
  if (fchown(fd, st.st_uid, st.st_gid) != 0) {
    /* only root may give a file away; the file stays ours, as an editor's save would leave it */
  }
  const char *what = NULL;
  if (!write_all(fd, data, len)) what = "cannot write the temporary file";
  else if (fchmod(fd, st.st_mode & 07777) != 0) what = "cannot give the temporary file the original's mode";
  else if (fsync(fd) != 0) what = "cannot flush the temporary file";
  int err = what ? errno : 0;
  if (close(fd) != 0 && !what) {
    what = "cannot close the temporary file";
    err = errno;
  }
  if (!what && rename(tmp, target) != 0) {
    what = "cannot replace the file";
    err = errno;
  }
  if (what) {
    unlink(tmp);
    free(tmp);
    free(target);
    return fail(why, whylen, what, err);
  }
  /* make the rename itself durable; a failure here loses nothing already written */
  char *dir = oom_xstrndup(target, dirlen ? dirlen : 1);
  if (!dirlen) dir[0] = '/';
  int dfd = open(dir, O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    if (fsync(dfd) != 0) { /* some file systems cannot sync folders */ }
    close(dfd);
  }
  free(dir);
  free(tmp);
  free(target);
  return true;
}
