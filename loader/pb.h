/* pb.h: loader-private glue between protobuf-c messages and the runtime's pools and tensors. */
#ifndef OSC_LOADER_PB_H
#define OSC_LOADER_PB_H

#include "onnx.pb-c.h"

#include "core/graph.h"
#include "loader.h"

/* ---- pb_alloc.c: a ProtobufCAllocator over an osc_allocator ---- */

/* Every block carries a 16-byte header (size, owner). Blocks of at least OSC_PB_BIG bytes come
 * from `pool` when one is given: free() ignores them and they live as long as the pool, so a
 * decoded tensor may keep pointing at the payload protobuf-c already copied out of the input
 * (no second copy of large payloads). Smaller blocks come from the allocator and are freed by
 * protobuf_c_message_free_unpacked. `failed` records an allocation failure (out of memory or
 * over the byte cap), which protobuf-c reports like malformed bytes. */
#define OSC_PB_BIG 4096
typedef struct osc_pb_alloc {
    ProtobufCAllocator pc; /* first member: &pa->pc is what protobuf-c receives */
    osc_allocator *a;
    osc_pool *pool;        /* NULL: every block from `a` */
    uint64_t budget;       /* bytes this unpack may hold at once (osc_pb_budget) */
    uint64_t charged;      /* bytes it holds now, headers included */
    bool failed;
    bool over_budget;      /* the failure was the budget, not the allocator */
    size_t failed_size;    /* bytes of the request that failed */
    osc_status failed_status; /* OSC_ERR_LIMIT when the byte cap refused it, else NOMEM */
} osc_pb_alloc;

void osc_pb_alloc_init(osc_pb_alloc *pa, osc_allocator *a, osc_pool *pool, uint64_t budget);

/* Reports the allocation that failed in an unpack of a len-byte model (pa->failed is set). */
osc_status osc_pb_alloc_report(const osc_pb_alloc *pa, uint64_t len, osc_err *err);

/* Unpacking turns a few wire bytes into a whole struct (an empty AttributeProto, 2 bytes on the
 * wire, becomes 272 bytes), so a small file of empty sub-messages could claim gigabytes inside the
 * byte cap. One unpack of len bytes may hold at most OSC_PB_AMPLIFICATION * len + OSC_PB_SLACK
 * bytes: osc_pb_prescan refuses a buffer whose messages and strings alone would need more, before
 * anything is allocated, and the allocator above enforces the same budget while unpacking.
 * Real models stay below it (their bulk is tensor data, unpacked once; without the slack, the
 * official node tests' files of a few hundred bytes need at most 32 times their bytes). */
#define OSC_PB_AMPLIFICATION 48
#define OSC_PB_SLACK ((uint64_t)16 << 20)
uint64_t osc_pb_budget(size_t len);
/* True when p (a block protobuf-c got from an osc_pb_alloc) lives in the pool. */
bool osc_pb_in_pool(const void *p);
/* Reports an allocation of n bytes from `a` that just failed: OSC_ERR_LIMIT when the byte cap
 * explains it, else OSC_ERR_NOMEM. Call it right away (before anything is freed). */
osc_status osc_nomem(osc_err *err, const osc_allocator *a, uint64_t n, const char *what);
/* The same for a failed osc_pool_alloc(pool, n) (the pool asks for a whole chunk). */
osc_status osc_pool_nomem(osc_err *err, const osc_pool *pool, uint64_t n, const char *what);

/* ---- pb_prescan.c: a wire walk run before protobuf-c's recursive unpack ---- */

/* protobuf-c recurses once per nested message without a limit; bytes nesting deeper than this
 * are refused before unpacking so a hostile file cannot exhaust the stack. */
#define OSC_PB_MAX_DEPTH 100
/* Walks the wire format of a `desc` message: OSC_ERR_PARSE for malformed wire data,
 * OSC_ERR_LIMIT for nesting deeper than OSC_PB_MAX_DEPTH or for messages, strings and unknown
 * fields that would unpack into more than osc_pb_budget(len) bytes (a lower bound of what
 * protobuf-c allocates: each message's struct, each string, each unknown field, plus the
 * allocator's 16-byte header per block). Linear in len. */
osc_status osc_pb_prescan(const ProtobufCMessageDescriptor *desc, const uint8_t *buf,
                          size_t len, const char *what, osc_err *err);

/* A model's skeleton: its bytes with every TensorProto's raw_data left in the source and an
 * unknown varint field OSC_PB_MARK in its place holding the payload's index in `pay` (the
 * source's own OSC_PB_MARK fields in TensorProtos are dropped; nothing reads them). Nested
 * messages get their lengths rewritten. protobuf-c unpacks the skeleton (a few bytes per
 * tensor), and osc_pb_payloads_fill copies each payload once, from the source into its block:
 * a model file is never in memory twice. */
#define OSC_PB_RAW_DATA 9       /* TensorProto.raw_data */
#define OSC_PB_MARK 0x1fffffff  /* the largest field number */
typedef struct osc_pb_payload {
    uint64_t at, len; /* the bytes in the source */
} osc_pb_payload;
typedef struct osc_pb_skeleton {
    osc_allocator *a;
    uint8_t *buf;
    size_t len, cap;
    osc_pb_payload *pay;
    size_t n_pay, cap_pay;
} osc_pb_skeleton;

/* osc_pb_prescan's checks over src (positions in errors are the source's), writing *sk. */
osc_status osc_pb_skeleton_build(const ProtobufCMessageDescriptor *desc, const osc_src *src,
                                 const char *what, osc_allocator *a, osc_pb_skeleton *sk,
                                 osc_err *err);
void osc_pb_skeleton_free(osc_pb_skeleton *sk);

/* ---- pb_payloads.c: the payloads put back into the unpacked skeleton ---- */

/* Gives every TensorProto under m that holds markers the raw_data of its last one (the last
 * raw_data on the wire, as protobuf's rule is), in a block from pa, read from src.
 * OSC_ERR_UNSUPPORTED (nothing reported) when the markers found are not each of sk's payloads
 * once (a message field given twice, which protobuf-c merges): unpack the source itself. */
osc_status osc_pb_payloads_fill(ProtobufCMessage *m, const osc_pb_skeleton *sk,
                                const osc_src *src, osc_pb_alloc *pa, osc_err *err);

/* ---- tensor_pb.c: TensorProto -> osc_tensor ---- */

typedef struct osc_tdec {
    const char *label;    /* names the tensor in messages: "initializer 'w'" */
    const char *base_dir; /* folder external data is relative to; NULL refuses external data */
    osc_pool *pool;       /* data (and string bytes) go here; NULL: one malloc() block */
    bool borrow;          /* data may point into pool-owned protobuf-c blocks (OSC_PB_BIG);
                           * only for messages unpacked through an osc_pb_alloc on `pool` */
    osc_err *err;
} osc_tdec;

/* Smallest external payload that is memory-mapped rather than read (smaller ones cost more to
 * map than to copy). */
#define OSC_MMAP_MIN ((size_t)64 << 10)

/* Decodes *tp into *out (dims, dtype, data, nbytes). Validates dtype, rank (<= lim->max_rank),
 * dims, element count, string lengths (<= lim->max_string) and the payload size of whichever
 * encoding is used, before allocating anything for the payload. lim NULL: OSC_MAX_RANK and the
 * default string limit. With a pool, external payloads of at least OSC_MMAP_MIN bytes at an
 * offset that is a multiple of 16 are memory-mapped (read-only, unmapped when the pool is freed)
 * instead of copied. On failure *out is zeroed and nothing is left allocated outside the pool. */
osc_status osc_tensor_from_pb_lim(const Onnx__TensorProto *tp, const osc_tdec *d,
                                  const osc_limits *lim, osc_tensor *out);
/* osc_tensor_from_pb_lim with lim NULL. */
osc_status osc_tensor_from_pb(const Onnx__TensorProto *tp, const osc_tdec *d, osc_tensor *out);

/* ---- external.c: data_location == EXTERNAL ---- */

typedef struct osc_extref {
    char path[4096]; /* resolved (realpath) file inside base_dir */
    int64_t offset;
    int64_t length;  /* == the tensor's payload bytes */
} osc_extref;

/* Resolves the external_data entries of tp (location, offset, length) against d->base_dir and
 * checks them: relative location that stays inside base_dir after resolving ".." and symlinks,
 * a regular file, a range inside the file exactly `nbytes` long. Reads nothing. */
osc_status osc_external_resolve(const Onnx__TensorProto *tp, const osc_tdec *d, size_t nbytes,
                                osc_extref *ref);
/* Reads the resolved range into dst (ref->length bytes). */
osc_status osc_external_read(const osc_extref *ref, const osc_tdec *d, void *dst);
/* Maps the resolved range read-only into *out, unmapped when d->pool is freed. The file is opened
 * again without following symlinks and must still be a regular file holding the range.
 * OSC_ERR_UNSUPPORTED (nothing reported in d->err) when mapping is not possible: read instead. */
osc_status osc_external_map(const osc_extref *ref, const osc_tdec *d, void **out);

/* ---- names.c: name -> value id hash map (open addressing) ---- */

/* Keys are borrowed (they point into the unpacked message). Slots hold ids; ids are assigned
 * 0, 1, 2, ... in order of first insertion. Memory comes from the allocator (not the pool)
 * and is released by osc_names_free. */
typedef struct osc_names {
    osc_allocator *a;
    int32_t *slots;     /* cap entries, -1 empty */
    size_t cap;         /* power of two, >= 2 * max */
    const char **keys;  /* keys[id] */
    int32_t n, max;
} osc_names;

/* Room for up to max_keys distinct keys; OSC_ERR_LIMIT beyond INT32_MAX / 2. */
osc_status osc_names_init(osc_names *m, osc_allocator *a, size_t max_keys, const char *what,
                          osc_err *err);
/* Id of s, or -1. */
int32_t osc_names_find(const osc_names *m, const char *s);
/* Id of s, inserting it when new (*added set accordingly); -1 when already max keys. */
int32_t osc_names_add(osc_names *m, const char *s, bool *added);
void osc_names_free(osc_names *m);

/* ---- scope.c: what a subgraph reads from the graphs around it ---- */

/* The free names of gp (used and not defined in it, its subgraphs' included) into *out, a
 * fresh map (keys borrowed from the message); depth is gp's nesting (1 for a subgraph of the
 * main graph), over OSC_MAX_GRAPH_DEPTH OSC_ERR_LIMIT. */
osc_status osc_scope_free_names(const Onnx__GraphProto *gp, osc_allocator *a, int depth,
                                osc_names *out, osc_err *err);
/* Name references of gp and of its subgraphs (nested at most OSC_MAX_GRAPH_DEPTH): a bound on
 * the number of its free names. */
size_t osc_scope_refs(const Onnx__GraphProto *gp, int depth);

/* ---- type_pb.c / attr_pb.c: pieces of a graph ---- */

/* TypeProto of a graph input/output/value_info -> osc_type (strings copied to pool); a rank
 * over max_rank is OSC_ERR_LIMIT.
 * `role` and `name` name the value in messages ("graph input", "x"). A NULL type, or a
 * tensor type without elem_type/shape, leaves dtype 0 / rank -1. A non-tensor type (sequence,
 * map, optional, sparse tensor, or a kind unknown to this onnx.proto) is accepted: it sets
 * out->non_tensor ("a sequence", ..., "an unknown") and leaves dtype 0 / rank -1. */
osc_status osc_type_from_pb(const Onnx__TypeProto *tp, const char *role, const char *name,
                            int32_t max_rank, osc_pool *pool, osc_type *out, osc_err *err);

/* AttributeProto -> osc_attr. `node` names the node in messages; TENSOR values are decoded
 * with `d` (its label is replaced) under `lim`, which also bounds STRING values. */
osc_status osc_attr_from_pb(const Onnx__AttributeProto *ap, const char *node, osc_tdec *d,
                            const osc_limits *lim, osc_attr *out);

#endif
