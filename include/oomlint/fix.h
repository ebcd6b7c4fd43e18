/* A fix: a title, how safe it is, and the text edits that make it. */
#ifndef OOMLINT_FIX_H
#define OOMLINT_FIX_H

#include <stddef.h>
#include <stdint.h>

typedef struct oom_fix oom_fix;

/** Ruff's applicability levels. */
typedef enum {
  OOM_FIX_DISPLAY, /* a suggestion only: no edits */
  OOM_FIX_UNSAFE,  /* may change behaviour; applied with --unsafe-fixes */
  OOM_FIX_SAFE     /* meaning preserved */
} oom_applicability;

typedef struct {
  uint32_t start_byte;
  uint32_t end_byte;
  const char *content; /* NUL-terminated replacement text */
} oom_edit;

oom_applicability oom_fix_applicability(const oom_fix *self);
const char *oom_applicability_name(oom_applicability applicability);
const char *oom_fix_title(const oom_fix *self);
size_t oom_fix_edit_count(const oom_fix *self);
/** Edits are sorted by start and do not overlap. */
const oom_edit *oom_fix_edit(const oom_fix *self, size_t index);

#endif
