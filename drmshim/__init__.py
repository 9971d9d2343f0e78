"""drmshim: the mock kernel, its firmware queues and the software GPU.

Owns the DRM files, VMs and page tables, GEM objects, binds, queues, the
drm_sched-like scheduler, sync objects, the vertex/fragment/compute firmware
queues, the GPU model (VDM, PPP, tiler, ISP, PDM, USC shader core, texture unit,
PBE, CDM), capture/replay and fault dumps. It registers itself as the backend of
/dev/dri/renderD128 on the uapi seam.

May import: uapi, layout. Must never import driver or compiler: a kernel never
links against the userspace that calls it. See README.md."""

__all__: list[str] = []
