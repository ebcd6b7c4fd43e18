/* This file contains the conversion of `file:` URIs to paths, for the
 * messages and relative settings (rulesDir) that need a path, and of paths
 * to URIs, for the folders the client is asked to watch. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lsp/uri.h"
#include "util/buf.h"
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


char *lsp_path_to_uri(const char *path) {
  buf b = {0};
  buf_puts(&b, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    /* RFC 3986's unreserved characters and the separator stay as they are
     * (ASCII only, whatever the locale says is alphanumeric) */
    bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 strchr("-._~/", *p);
    if (plain) buf_putc(&b, (char)*p);
    else buf_printf(&b, "%%%02X", *p);
  }
  char *uri = oom_xstrdup(buf_str(&b));
  buf_free(&b);
  return uri;
}
