/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared inside filecoin/c1/: the tree shapes a registered proof fixes, and
 * the JSON cursor the C1 and envelope parsers read with. The cursor keeps
 * the path of fields and indexes it is in, so that a refusal names the
 * place ("vanilla_proofs[3][17].comm_r_last_proof.Sub.base_proof.path[2]")
 * without any formatting cost while the input is good.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"

/* A Merkle proof's variant and its path lengths. */
struct c1_tree_shape {
        enum c1_merkle_kind kind;
        unsigned base_elements, base_hashes; /* hashes per element: arity - 1 */
        unsigned sub_hashes, top_hashes;     /* one element each, when present */
};

void c1_tree_r_shape(const struct porep_config *cfg, struct c1_tree_shape *ret);
void c1_tree_d_shape(const struct porep_config *cfg, struct c1_tree_shape *ret);

/* The variant names of ProofData, by enum c1_merkle_kind. */
extern const char *const c1_merkle_kind_names[3];

#define C1_CURSOR_MAX_DEPTH 16u
#define C1_SKIP_MAX_DEPTH 64u

/* One step of the path: a field name, an array index, or hidden (key NULL, hidden true). */
struct c1_frame {
        const char *key;
        uint32_t index;
        bool hidden;
};

struct c1_cursor {
        const char *start, *p, *end;
        const char *what; /* the file name for messages */
        unsigned depth;
        struct c1_frame frames[C1_CURSOR_MAX_DEPTH];
};

/* Iterates over an object's fields, each of names[] at most once. */
struct c1_fields {
        const char *const *names;
        unsigned n_names;
        uint32_t required; /* bit i: names[i] must be present */
        uint32_t seen;
        bool started; /* a field frame is pushed */
};

/* Refuses a JSON text of len bytes over max_bytes, which a reader would not hold in memory:
 * logs "what: N bytes, more than the M <kind> may have" and returns -E2BIG; else 0. */
int c1_check_json_size(size_t len, unsigned long long max_bytes, const char *what,
                       const char *kind);
void c1_cursor_init(struct c1_cursor *c, const char *json, size_t len, const char *what);
/* Logs "what: path: message (at byte N)" and returns -EINVAL. */
int c1_cursor_fail(struct c1_cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void c1_cursor_push_key(struct c1_cursor *c, const char *key);
void c1_cursor_push_index(struct c1_cursor *c, uint32_t index);
void c1_cursor_pop(struct c1_cursor *c);
/* Hides the innermost frame from messages (serde's "data" and enum keys). */
void c1_cursor_hide_top(struct c1_cursor *c);

void c1_cursor_skip_ws(struct c1_cursor *c);
int c1_cursor_expect(struct c1_cursor *c, char ch);
/* A string without escapes; *ret points into the input. */
int c1_cursor_string(struct c1_cursor *c, const char **ret, size_t *ret_len);
int c1_cursor_u64(struct c1_cursor *c, uint64_t min, uint64_t max, uint64_t *ret);
int c1_cursor_u32(struct c1_cursor *c, uint32_t min, uint32_t max, uint32_t *ret);
int c1_cursor_literal(struct c1_cursor *c, const char *literal);
/* An array of exactly 32 integers 0..255. */
int c1_cursor_domain(struct c1_cursor *c, c1_domain out);
/* Skips one value of any kind (nesting up to C1_SKIP_MAX_DEPTH), loosely checked. */
int c1_cursor_skip_value(struct c1_cursor *c);

/*
 * Array of exactly n elements, what naming them ("hashes"): call with
 * i = 0, 1, ... after the '['. Returns 1 when element i follows (its index
 * frame pushed: pop it after the element), 0 after the ']' that follows
 * element n - 1, or -EINVAL.
 */
int c1_cursor_array_next(struct c1_cursor *c, uint32_t i, uint32_t n, const char *what);

/*
 * Object fields: call after the '{' until it returns 0 (after '}', every
 * required field seen) or < 0. Returns 1 with *which the field's index in
 * names and its frame pushed (popped by the next call).
 */
int c1_cursor_field(struct c1_cursor *c, struct c1_fields *f, int *which);

/* Opens an object holding one enum variant: returns its name (no frame pushed). */
int c1_cursor_variant(struct c1_cursor *c, const char **ret, size_t *ret_len);
/* Closes it: one variant only. */
int c1_cursor_variant_end(struct c1_cursor *c);

/* A growing output buffer; on allocation failure it stays failed (failed = true). */
struct c1_buffer {
        char *data;
        size_t len, cap;
        bool failed;
};

/* Room for n more bytes at data + len; false (and failed set) when out of memory. */
bool c1_buffer_reserve(struct c1_buffer *b, size_t n);
void c1_buffer_add(struct c1_buffer *b, const void *bytes, size_t n);
void c1_buffer_add_str(struct c1_buffer *b, const char *s);
void c1_buffer_add_u64(struct c1_buffer *b, uint64_t v);
/* Hands the bytes out (0), or frees them and returns -ENOMEM. */
int c1_buffer_finish(struct c1_buffer *b, char **ret, size_t *ret_len);
/* Writes all of buf to f: 0 or -EIO. */
int c1_fwrite_all(FILE *f, const char *buf, size_t len);
