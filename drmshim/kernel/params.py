"""GPU configurations: what GET_PARAMS reports, as data.

Sole responsibility: describe each supported GPU (a small one like M1 and a large
one like M1 Max) as one record. Code never forks per model: everything that
differs is a field here. Select with ``Kernel(config="m1max")`` or the
``SHIMGL_GPU`` environment variable (default ``m1``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import layout
import uapi

__all__ = ["GPUConfig", "GPU_CONFIGS", "select_config", "fill_params"]


@dataclass(frozen=True)
class GPUConfig:
    name: str
    gpu_generation: int
    gpu_variant: str  # one ASCII letter, as the firmware names it
    gpu_revision: int
    chip_id: int
    num_dies: int
    num_clusters_total: int
    num_cores_per_cluster: int
    max_frequency_khz: int
    vm_start: int = 0x4000  # 16 KiB
    vm_end: int = (1 << 39) - 0x8000  # 2^39 - 32 KiB
    vm_kernel_min_size: int = 0x2000_0000
    page_size_B: int = layout.PAGE_B       # the GPU MMU's 16 KiB page, layout's fact
    max_commands_per_submission: int = 64
    max_attachments: int = 64
    command_timestamp_frequency_hz: int = 1_000_000_000
    soft_faults: bool = False

    @property
    def num_cores_total(self) -> int:
        return self.num_clusters_total * self.num_cores_per_cluster

    @property
    def features(self) -> int:
        return uapi.DRM_ASAHI_FEATURE_SOFT_FAULTS if self.soft_faults else 0


GPU_CONFIGS: dict[str, GPUConfig] = {
    "m1": GPUConfig(name="m1", gpu_generation=13, gpu_variant="G", gpu_revision=0x11, chip_id=0x8103,
                    num_dies=1, num_clusters_total=1, num_cores_per_cluster=8, max_frequency_khz=1_278_000),
    "m1max": GPUConfig(name="m1max", gpu_generation=13, gpu_variant="C", gpu_revision=0x11, chip_id=0x6001,
                       num_dies=1, num_clusters_total=4, num_cores_per_cluster=8, max_frequency_khz=1_296_000),
}


def select_config(config: str | GPUConfig | None = None) -> GPUConfig:
    """A configuration by name (or the ``SHIMGL_GPU`` variable), or the one given."""
    if isinstance(config, GPUConfig):
        return config
    name = config or os.environ.get("SHIMGL_GPU", "m1")
    try:
        return GPU_CONFIGS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown GPU configuration {name!r} (SHIMGL_GPU): one of {sorted(GPU_CONFIGS)}") from None


def fill_params(config: GPUConfig, params) -> None:
    """Fill a ``struct drm_asahi_params_global`` from ``config``."""
    params.features = config.features
    params.gpu_generation = config.gpu_generation
    params.gpu_variant = ord(config.gpu_variant)
    params.gpu_revision = config.gpu_revision
    params.chip_id = config.chip_id
    params.num_dies = config.num_dies
    params.num_clusters_total = config.num_clusters_total
    params.num_cores_per_cluster = config.num_cores_per_cluster
    params.max_frequency_khz = config.max_frequency_khz
    for cluster in range(config.num_clusters_total):
        params.core_masks[cluster] = (1 << config.num_cores_per_cluster) - 1
    params.vm_start = config.vm_start
    params.vm_end = config.vm_end
    params.vm_kernel_min_size = config.vm_kernel_min_size
    params.max_commands_per_submission = config.max_commands_per_submission
    params.max_attachments = config.max_attachments
    params.command_timestamp_frequency_hz = config.command_timestamp_frequency_hz
