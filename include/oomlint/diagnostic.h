/* A diagnostic: one finding of one rule at one range of a document. */
#ifndef OOMLINT_DIAGNOSTIC_H
#define OOMLINT_DIAGNOSTIC_H

#include <stdint.h>
#include "oomlint/linter.h"
#include "oomlint/fix.h"

typedef struct oom_diagnostic oom_diagnostic;

/** A position in a document. ROW is 0-based; COLUMN is the 0-based byte offset
 *  in the row; BYTE the offset in the document. Front ends convert columns to
 *  code points or UTF-16 units with oom_column_convert(). */
typedef struct {
  uint32_t byte;
  uint32_t row;
  uint32_t column;
} oom_position;

const oom_rule *oom_diagnostic_rule(const oom_diagnostic *self);
const char *oom_diagnostic_code(const oom_diagnostic *self);
oom_severity oom_diagnostic_severity(const oom_diagnostic *self);
const char *oom_diagnostic_message(const oom_diagnostic *self);
oom_position oom_diagnostic_start(const oom_diagnostic *self);
oom_position oom_diagnostic_end(const oom_diagnostic *self);
/** The suggested fix, or NULL. */
const oom_fix *oom_diagnostic_fix(const oom_diagnostic *self);

typedef enum { OOM_UNITS_BYTES, OOM_UNITS_CODEPOINTS, OOM_UNITS_UTF16 } oom_units;

/** Convert the byte column COLUMN of the line starting at LINE (LENGTH bytes
 *  available) to UNITS. Invalid UTF-8 bytes count as one unit each. */
uint32_t oom_column_convert(const char *line, size_t length, uint32_t column, oom_units units);

#endif
