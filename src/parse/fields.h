/* Children of Python nodes by field, through the grammar's field ids known at
 * build time: a lookup by name would compare strings on every call. */
#ifndef OOM_PARSE_FIELDS_H
#define OOM_PARSE_FIELDS_H

#include <tree_sitter/api.h>

#include "python_fields.h"

/* FIELD(node, function) is ts_node_child_by_field_name(node, "function", 8);
 * a field the grammar lacks fails to compile instead of finding nothing. */
#define FIELD(node, name) ts_node_child_by_field_id((node), OOM_FIELD_##name)

#endif
