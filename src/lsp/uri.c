/* This file contains the conversion of `file:` URIs to paths, for the
 * messages and relative settings (rulesDir) that need a path. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lsp/server.h"
#include "util/alloc.h"


static int hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}


char *lsp_uri_to_path(const char *uri) {
  if (strncasecmp(uri, "file://", 7)) return oom_xstrdup(uri);
  const char *p = uri + 7;
  if (*p != '/') p = strchr(p, '/'); /* file://host/path: the host is dropped */
  if (!p) return oom_xstrdup(uri);
  char *out = oom_xmalloc(strlen(p) + 1), *o = out;
  for (; *p && *p != '?' && *p != '#'; p++) {
    int h1, h2;
    if (*p == '%' && (h1 = hex((unsigned char)p[1])) >= 0 && (h2 = hex((unsigned char)p[2])) >= 0) {
      char c = (char)(h1 * 16 + h2);
      *o++ = c ? c : '?'; /* a NUL would end the path early */
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = '\0';
  return out;
}
