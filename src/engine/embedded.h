/* The rule files embedded at build time (cmake/embed.cmake generates the
 * table). */
#ifndef OOM_ENGINE_EMBEDDED_H
#define OOM_ENGINE_EMBEDDED_H

#include <stddef.h>

typedef struct {
  const char *name; /* file name under rules/ */
  const char *data; /* NUL-terminated */
  size_t length;
} oom_embedded_file;

/** Terminated by an entry whose name is NULL. */
extern const oom_embedded_file oom_embedded_files[];

#endif
