/* `file:` URIs and paths, both ways. */
#ifndef OOM_LSP_URI_H
#define OOM_LSP_URI_H

/** A file: URI's path (percent-decoded), or the URI itself. Malloc'd. */
char *lsp_uri_to_path(const char *uri);
/** The file: URI of the absolute PATH, percent-encoded. Malloc'd. */
char *lsp_path_to_uri(const char *path);

#endif
