/*
 * The DRM interface of shimgl's mock kernel, as one C header fed to cffi
 * (ABI mode, no compilation). Sole source of truth for every ioctl struct,
 * flag and enum: request numbers are computed from these sizes.
 *
 * Part 1 is the generic DRM core (include/uapi/drm/drm.h) that a render-node
 * driver needs. Part 2 has the byte layout of upstream Linux 6.16
 * include/uapi/drm/asahi_drm.h, written from its field lists. Part 3 holds
 * shimgl's extensions, which follow upstream's own rule: fields are appended
 * (or a new ioctl id is appended), and zero keeps the upstream behaviour.
 * See uapi/README.md for each extension.
 *
 * Layout assumptions: LP64, 8-byte aligned u64, as on arm64 and x86-64.
 */

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef int __s32;
typedef long long __s64;
typedef unsigned long __kernel_size_t;

/* ---------------------------------------------------------------------- */
/* Part 1: generic DRM (drm.h)                                            */
/* ---------------------------------------------------------------------- */

#define DRM_COMMAND_BASE 0x40
#define DRM_COMMAND_END 0xA0

struct drm_version {
	int version_major;
	int version_minor;
	int version_patchlevel;
	__kernel_size_t name_len;
	char *name;
	__kernel_size_t date_len;
	char *date;
	__kernel_size_t desc_len;
	char *desc;
};

struct drm_gem_close {
	__u32 handle;
	__u32 pad;
};

#define DRM_CAP_PRIME 0x5
#define DRM_PRIME_CAP_IMPORT 0x1
#define DRM_PRIME_CAP_EXPORT 0x2
#define DRM_CAP_SYNCOBJ 0x13
#define DRM_CAP_SYNCOBJ_TIMELINE 0x14

struct drm_get_cap {
	__u64 capability;
	__u64 value;
};

#define DRM_CLOEXEC 0x80000
#define DRM_RDWR 0x2

struct drm_prime_handle {
	__u32 handle;
	__u32 flags;
	__s32 fd;
};

#define DRM_SYNCOBJ_CREATE_SIGNALED 0x1

struct drm_syncobj_create {
	__u32 handle;
	__u32 flags;
};

struct drm_syncobj_destroy {
	__u32 handle;
	__u32 pad;
};

#define DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE 0x1
#define DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE 0x1

struct drm_syncobj_handle {
	__u32 handle;
	__u32 flags;
	__s32 fd;
	__u32 pad;
};

struct drm_syncobj_transfer {
	__u32 src_handle;
	__u32 dst_handle;
	__u64 src_point;
	__u64 dst_point;
	__u32 flags;
	__u32 pad;
};

#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL 0x1
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT 0x2
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE 0x4
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE 0x8

struct drm_syncobj_wait {
	__u64 handles;
	__s64 timeout_nsec;
	__u32 count_handles;
	__u32 flags;
	__u32 first_signaled;
	__u32 pad;
	__u64 deadline_nsec;
};

struct drm_syncobj_timeline_wait {
	__u64 handles;
	__u64 points;
	__s64 timeout_nsec;
	__u32 count_handles;
	__u32 flags;
	__u32 first_signaled;
	__u32 pad;
	__u64 deadline_nsec;
};

struct drm_syncobj_array {
	__u64 handles;
	__u32 count_handles;
	__u32 pad;
};

#define DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED 0x1

struct drm_syncobj_timeline_array {
	__u64 handles;
	__u64 points;
	__u32 count_handles;
	__u32 flags;
};

/* ---------------------------------------------------------------------- */
/* Part 2: upstream asahi_drm.h (Linux 6.16)                              */
/* ---------------------------------------------------------------------- */

enum drm_asahi_ioctl_id {
	DRM_ASAHI_GET_PARAMS = 0,
	DRM_ASAHI_GET_TIME = 1,
	DRM_ASAHI_VM_CREATE = 2,
	DRM_ASAHI_VM_DESTROY = 3,
	DRM_ASAHI_VM_BIND = 4,
	DRM_ASAHI_GEM_CREATE = 5,
	DRM_ASAHI_GEM_MMAP_OFFSET = 6,
	DRM_ASAHI_GEM_BIND_OBJECT = 7,
	DRM_ASAHI_QUEUE_CREATE = 8,
	DRM_ASAHI_QUEUE_DESTROY = 9,
	DRM_ASAHI_SUBMIT = 10,
	/* shimgl extensions (Part 3) */
	DRM_ASAHI_GEM_SHARE = 11,
	DRM_ASAHI_QUEUE_COUNTERS = 12,
	DRM_ASAHI_GEM_USERPTR = 13,
};

#define DRM_ASAHI_MAX_CLUSTERS 64

struct drm_asahi_params_global {
	__u64 features;
	__u32 gpu_generation;
	__u32 gpu_variant;
	__u32 gpu_revision;
	__u32 chip_id;
	__u32 num_dies;
	__u32 num_clusters_total;
	__u32 num_cores_per_cluster;
	__u32 max_frequency_khz;
	__u64 core_masks[64];
	__u64 vm_start;
	__u64 vm_end;
	__u64 vm_kernel_min_size;
	__u32 max_commands_per_submission;
	__u32 max_attachments;
	__u64 command_timestamp_frequency_hz;
};

enum drm_asahi_feature {
	DRM_ASAHI_FEATURE_SOFT_FAULTS = (1UL) << 0,
};

struct drm_asahi_get_params {
	__u32 param_group;
	__u32 pad;
	__u64 pointer;
	__u64 size;
};

struct drm_asahi_vm_create {
	__u64 kernel_start;
	__u64 kernel_end;
	__u32 vm_id;
	__u32 pad;
};

struct drm_asahi_vm_destroy {
	__u32 vm_id;
	__u32 pad;
};

enum drm_asahi_gem_flags {
	DRM_ASAHI_GEM_WRITEBACK = (1L << 0),
	DRM_ASAHI_GEM_VM_PRIVATE = (1L << 1),
};

struct drm_asahi_gem_create {
	__u64 size;
	__u32 flags;
	__u32 vm_id;
	__u32 handle;
	__u32 pad;
};

struct drm_asahi_gem_mmap_offset {
	__u32 handle;
	__u32 flags;
	__u64 offset;
};

enum drm_asahi_bind_flags {
	DRM_ASAHI_BIND_UNBIND = (1L << 0),
	DRM_ASAHI_BIND_READ = (1L << 1),
	DRM_ASAHI_BIND_WRITE = (1L << 2),
	DRM_ASAHI_BIND_SINGLE_PAGE = (1L << 3),
};

struct drm_asahi_gem_bind_op {
	__u32 flags;
	__u32 handle;
	__u64 offset;
	__u64 range;
	__u64 addr;
};

struct drm_asahi_vm_bind {
	__u32 vm_id;
	__u32 num_binds;
	__u32 stride;
	__u32 pad;
	__u64 userptr;
};

enum drm_asahi_bind_object_op {
	DRM_ASAHI_BIND_OBJECT_OP_BIND = 0,
	DRM_ASAHI_BIND_OBJECT_OP_UNBIND = 1,
};

enum drm_asahi_bind_object_flags {
	DRM_ASAHI_BIND_OBJECT_USAGE_TIMESTAMPS = (1L << 0),
};

struct drm_asahi_gem_bind_object {
	__u32 op;
	__u32 flags;
	__u32 handle;
	__u32 vm_id;
	__u64 offset;
	__u64 range;
	__u32 object_handle;
	__u32 pad;
};

enum drm_asahi_cmd_type {
	DRM_ASAHI_CMD_RENDER = 0,
	DRM_ASAHI_CMD_COMPUTE = 1,
	DRM_ASAHI_SET_VERTEX_ATTACHMENTS = 2,
	DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS = 3,
	DRM_ASAHI_SET_COMPUTE_ATTACHMENTS = 4,
	/* shimgl extension: fragment-only render command (Part 3) */
	DRM_ASAHI_CMD_BLIT = 5,
};

enum drm_asahi_priority {
	DRM_ASAHI_PRIORITY_LOW = 0,
	DRM_ASAHI_PRIORITY_MEDIUM = 1,
	DRM_ASAHI_PRIORITY_HIGH = 2,
	DRM_ASAHI_PRIORITY_REALTIME = 3,
};

struct drm_asahi_queue_create {
	__u32 flags;
	__u32 vm_id;
	__u32 priority;
	__u32 queue_id;
	__u64 usc_exec_base;
};

struct drm_asahi_queue_destroy {
	__u32 queue_id;
	__u32 pad;
};

enum drm_asahi_sync_type {
	DRM_ASAHI_SYNC_SYNCOBJ = 0,
	DRM_ASAHI_SYNC_TIMELINE_SYNCOBJ = 1,
};

struct drm_asahi_sync {
	__u32 sync_type;
	__u32 handle;
	__u64 timeline_value;
};

#define DRM_ASAHI_BARRIER_NONE 0xFFFF

struct drm_asahi_cmd_header {
	__u16 cmd_type;
	__u16 size;
	__u16 vdm_barrier;
	__u16 cdm_barrier;
};

struct drm_asahi_submit {
	__u64 syncs;
	__u64 cmdbuf;
	__u32 flags;
	__u32 queue_id;
	__u32 in_sync_count;
	__u32 out_sync_count;
	__u32 cmdbuf_size;
	__u32 pad;
};

struct drm_asahi_attachment {
	__u64 pointer;
	__u64 size;
	__u32 pad;
	__u32 flags;
};

enum drm_asahi_render_flags {
	DRM_ASAHI_RENDER_VERTEX_SCRATCH = (1U << 0),
	DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES = (1U << 1),
	DRM_ASAHI_RENDER_NO_VERTEX_CLUSTERING = (1U << 2),
	DRM_ASAHI_RENDER_DBIAS_IS_INT = (1U << 18),
};

struct drm_asahi_zls_buffer {
	__u64 base;
	__u64 comp_base;
	__u32 stride;
	__u32 comp_stride;
};

struct drm_asahi_timestamp {
	__u32 handle;
	__u32 offset;
};

struct drm_asahi_timestamps {
	struct drm_asahi_timestamp start;
	struct drm_asahi_timestamp end;
};

struct drm_asahi_helper_program {
	__u32 binary;
	__u32 cfg;
	__u64 data;
};

struct drm_asahi_bg_eot {
	__u32 usc;
	__u32 rsrc_spec;
};

struct drm_asahi_cmd_render {
	__u32 flags;
	__u32 isp_zls_pixels;
	__u64 vdm_ctrl_stream_base;
	struct drm_asahi_helper_program vertex_helper;
	struct drm_asahi_helper_program fragment_helper;
	__u64 isp_scissor_base;
	__u64 isp_dbias_base;
	__u64 isp_oclqry_base;
	struct drm_asahi_zls_buffer depth;
	struct drm_asahi_zls_buffer stencil;
	__u64 zls_ctrl;
	__u64 ppp_multisamplectl;
	__u64 sampler_heap;
	__u32 ppp_ctrl;
	__u16 width_px;
	__u16 height_px;
	__u16 layers;
	__u16 sampler_count;
	__u8 utile_width_px;
	__u8 utile_height_px;
	__u8 samples;
	__u8 sample_size_B;
	__u32 isp_merge_upper_x;
	__u32 isp_merge_upper_y;
	struct drm_asahi_bg_eot bg;
	struct drm_asahi_bg_eot eot;
	struct drm_asahi_bg_eot partial_bg;
	struct drm_asahi_bg_eot partial_eot;
	__u32 isp_bgobjdepth;
	__u32 isp_bgobjvals;
	struct drm_asahi_timestamps ts_vtx;
	struct drm_asahi_timestamps ts_frag;
	/* --- shimgl extension: command feedback (upstream size ends here, 240) --- */
	__u32 feedback_handle;
	__u32 feedback_size;
	__u64 feedback_offset;
};

struct drm_asahi_cmd_compute {
	__u32 flags;
	__u32 sampler_count;
	__u64 cdm_ctrl_stream_base;
	__u64 cdm_ctrl_stream_end;
	__u64 sampler_heap;
	struct drm_asahi_helper_program helper;
	struct drm_asahi_timestamps ts;
	/* --- shimgl extension: command feedback (upstream size ends here, 64) --- */
	__u32 feedback_handle;
	__u32 feedback_size;
	__u64 feedback_offset;
};

struct drm_asahi_get_time {
	__u64 flags;
	__u64 gpu_timestamp;
};

/* ---------------------------------------------------------------------- */
/* Part 3: shimgl extensions                                              */
/* ---------------------------------------------------------------------- */

/* Command feedback: what the kernel writes at feedback_offset of the GEM
 * object feedback_handle (at most feedback_size bytes) once a command has
 * completed. feedback_handle == 0 asks for nothing (upstream behaviour). */
enum drm_asahi_status {
	DRM_ASAHI_STATUS_PENDING = 0,
	DRM_ASAHI_STATUS_COMPLETE = 1,
	DRM_ASAHI_STATUS_UNKNOWN_ERROR = 2,
	DRM_ASAHI_STATUS_TIMEOUT = 3,
	DRM_ASAHI_STATUS_FAULT = 4,
	DRM_ASAHI_STATUS_KILLED = 5,
	DRM_ASAHI_STATUS_NO_DEVICE = 6,
};

/* The GPU unit that faulted. */
enum drm_asahi_fault_unit {
	DRM_ASAHI_UNIT_UNKNOWN = 0,
	DRM_ASAHI_UNIT_VDM = 1,
	DRM_ASAHI_UNIT_CDM = 2,
	DRM_ASAHI_UNIT_PPP = 3,
	DRM_ASAHI_UNIT_TILER = 4,
	DRM_ASAHI_UNIT_ISP = 5,
	DRM_ASAHI_UNIT_PDM = 6,
	DRM_ASAHI_UNIT_USC = 7,
	DRM_ASAHI_UNIT_TEX = 8,
	DRM_ASAHI_UNIT_PBE = 9,
	DRM_ASAHI_UNIT_ZLS = 10,
	DRM_ASAHI_UNIT_FW = 11,
};

enum drm_asahi_feedback_flags {
	DRM_ASAHI_FEEDBACK_FAULT_VALID = (1U << 0),
	DRM_ASAHI_FEEDBACK_FAULT_IS_READ = (1U << 1),
	DRM_ASAHI_FEEDBACK_SOFT_FAULT = (1U << 2),
};

struct drm_asahi_cmd_feedback {
	__u32 status;
	__u32 command_index;
	__u64 start_ns;
	__u64 end_ns;
	__u64 vertex_start_ns;
	__u64 vertex_end_ns;
	__u64 fragment_start_ns;
	__u64 fragment_end_ns;
	__u64 tvb_size_B;
	__u64 tvb_usage_B;
	__u32 tvb_overflows;
	__u32 partial_renders;
	__u64 fault_address;
	__u32 fault_unit;
	__u32 flags;
};

/* DRM_IOCTL_ASAHI_GEM_SHARE: turn a VM-private object into a shared one in
 * place (binds and mappings stay). flags MBZ. */
struct drm_asahi_gem_share {
	__u32 handle;
	__u32 flags;
};

/* DRM_IOCTL_ASAHI_QUEUE_COUNTERS: the kernel writes at most size bytes of
 * struct drm_asahi_queue_counters to pointer. flags MBZ. */
struct drm_asahi_queue_counters {
	__u64 commands;            /* hardware commands completed */
	__u64 vertices;            /* vertices shaded */
	__u64 primitives;          /* primitives assembled */
	__u64 fragments;           /* fragments shaded */
	__u64 tiles;               /* tiles processed by fragment passes */
	__u64 shader_instructions; /* USC instructions executed */
	__u64 partial_renders;     /* partial renders (TVB overflows) */
	__u64 faults;              /* commands that faulted (soft or hard) */
	__u64 timeouts;            /* commands stopped by the GPU watchdog: a queue
	                            * with timeouts != 0 is guilty (reset): its later
	                            * commands are cancelled and SUBMIT gives ECANCELED */
	__u64 cancelled;           /* commands cancelled (KILLED) after such a reset */
};

struct drm_asahi_get_queue_counters {
	__u32 queue_id;
	__u32 flags;
	__u64 pointer;
	__u64 size;
};

/* DRM_IOCTL_ASAHI_GEM_USERPTR: a shared GEM object whose pages are the
 * process's memory [pointer, pointer + size) (i915's userptr): the CPU's
 * accesses to that range and the GPU's to the object reach the same pages.
 * pointer and size are multiples of the host page, size > 0, and the range must
 * be mapped writable (else EFAULT). The object's size is size rounded up to the
 * GPU page; handle is returned. When its last reference goes, the range keeps
 * the object's final bytes in ordinary private memory. flags MBZ. */
struct drm_asahi_gem_userptr {
	__u64 pointer;
	__u64 size;
	__u32 flags;
	__u32 handle;
};
