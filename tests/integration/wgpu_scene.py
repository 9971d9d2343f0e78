"""wgpu (wgpu-py on wgpu-native) on its OpenGL backend (WGPU_BACKEND_TYPE=OpenGL,
EGL headless): a render pass with a depth buffer, vertex and index buffers, a
uniform buffer, a sampled texture and alpha blending into a 96x96 target, read
back with a texture-to-buffer copy; and a compute pass over a storage buffer.
Usage: python wgpu_scene.py OUT.npz. Prints "renderer ..." and, last, "OK"."""

import sys

import numpy as np
import wgpu

W = H = 96
adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
print("renderer", adapter.info["device"], "|", adapter.info["backend_type"])
device = adapter.request_device_sync()

shader = device.create_shader_module(code="""
struct Uniforms { tint: vec4<f32>, offset: vec2<f32> };
@group(0) @binding(0) var<uniform> u: Uniforms;
@group(0) @binding(1) var tex: texture_2d<f32>;
@group(0) @binding(2) var smp: sampler;
struct VO { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32>, @location(1) alpha: f32 };
@vertex fn vs(@location(0) p: vec3<f32>, @location(1) uv: vec2<f32>, @location(2) a: f32) -> VO {
  var o: VO; o.pos = vec4(p.xy + u.offset, p.z, 1.0); o.uv = uv; o.alpha = a; return o; }
@fragment fn fs(v: VO) -> @location(0) vec4<f32> {
  let t = textureSample(tex, smp, v.uv);
  return vec4(t.rgb * u.tint.rgb, v.alpha); }
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64) fn cs(@builtin(global_invocation_id) id: vec3<u32>) {
  data[id.x] = data[id.x] * 3u + id.x * id.x; }
""")

# two quads: an opaque one behind (z 0.6), a translucent one in front (z 0.3), overlapping
verts = np.array([
    # x, y, z, u, v, alpha
    [-0.9, -0.9, 0.6, 0, 1, 1.0], [0.5, -0.9, 0.6, 1, 1, 1.0], [0.5, 0.5, 0.6, 1, 0, 1.0], [-0.9, 0.5, 0.6, 0, 0, 1.0],
    [-0.4, -0.4, 0.3, 0, 2, 0.5], [0.9, -0.4, 0.3, 2, 2, 0.5], [0.9, 0.9, 0.3, 2, 0, 0.5], [-0.4, 0.9, 0.3, 0, 0, 0.5],
], np.float32)
index = np.array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7], np.uint32)
vbuf = device.create_buffer_with_data(data=verts, usage=wgpu.BufferUsage.VERTEX)
ibuf = device.create_buffer_with_data(data=index, usage=wgpu.BufferUsage.INDEX)
ubuf = device.create_buffer_with_data(data=np.array([1.0, 0.8, 0.6, 1.0, 0.05, -0.05, 0, 0], np.float32),
                                      usage=wgpu.BufferUsage.UNIFORM)
texels = np.zeros((8, 8, 4), np.uint8)
yy, xx = np.mgrid[0:8, 0:8]
texels[..., 0] = xx * 32
texels[..., 1] = yy * 32
texels[..., 2] = np.where((xx + yy) % 2 == 0, 255, 40)
texels[..., 3] = 255
tex = device.create_texture(size=(8, 8, 1), format=wgpu.TextureFormat.rgba8unorm,
                            usage=wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST)
device.queue.write_texture({"texture": tex}, texels, {"bytes_per_row": 32}, (8, 8, 1))
sampler = device.create_sampler(address_mode_u=wgpu.AddressMode.repeat, address_mode_v=wgpu.AddressMode.repeat,
                                mag_filter=wgpu.FilterMode.nearest, min_filter=wgpu.FilterMode.nearest)
target = device.create_texture(size=(W, H, 1), format=wgpu.TextureFormat.rgba8unorm,
                               usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC)
depth = device.create_texture(size=(W, H, 1), format=wgpu.TextureFormat.depth24plus,
                              usage=wgpu.TextureUsage.RENDER_ATTACHMENT)
pipe = device.create_render_pipeline(
    layout="auto",
    vertex={"module": shader, "entry_point": "vs", "buffers": [{
        "array_stride": 24, "attributes": [
            {"format": wgpu.VertexFormat.float32x3, "offset": 0, "shader_location": 0},
            {"format": wgpu.VertexFormat.float32x2, "offset": 12, "shader_location": 1},
            {"format": wgpu.VertexFormat.float32, "offset": 20, "shader_location": 2}]}]},
    fragment={"module": shader, "entry_point": "fs", "targets": [{
        "format": wgpu.TextureFormat.rgba8unorm,
        "blend": {"color": {"src_factor": wgpu.BlendFactor.src_alpha, "dst_factor": wgpu.BlendFactor.one_minus_src_alpha,
                            "operation": wgpu.BlendOperation.add},
                  "alpha": {"src_factor": wgpu.BlendFactor.one, "dst_factor": wgpu.BlendFactor.zero,
                            "operation": wgpu.BlendOperation.add}}}]},
    primitive={"topology": wgpu.PrimitiveTopology.triangle_list},
    depth_stencil={"format": wgpu.TextureFormat.depth24plus, "depth_write_enabled": True,
                   "depth_compare": wgpu.CompareFunction.less})
bind = device.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
    {"binding": 0, "resource": {"buffer": ubuf}}, {"binding": 1, "resource": tex.create_view()},
    {"binding": 2, "resource": sampler}])
enc = device.create_command_encoder()
rp = enc.begin_render_pass(
    color_attachments=[{"view": target.create_view(), "clear_value": (0.1, 0.15, 0.2, 1.0),
                        "load_op": wgpu.LoadOp.clear, "store_op": wgpu.StoreOp.store}],
    depth_stencil_attachment={"view": depth.create_view(), "depth_clear_value": 1.0,
                              "depth_load_op": wgpu.LoadOp.clear, "depth_store_op": wgpu.StoreOp.store})
rp.set_pipeline(pipe)
rp.set_bind_group(0, bind)
rp.set_vertex_buffer(0, vbuf)
rp.set_index_buffer(ibuf, wgpu.IndexFormat.uint32)
rp.draw_indexed(12)
rp.end()
device.queue.submit([enc.finish()])
image = np.frombuffer(device.queue.read_texture({"texture": target}, {"bytes_per_row": W * 4}, (W, H, 1)),
                      np.uint8).reshape(H, W, 4)

start = np.arange(256, dtype=np.uint32) * 7
buf = device.create_buffer_with_data(data=start, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
cp = device.create_compute_pipeline(layout="auto", compute={"module": shader, "entry_point": "cs"})
cbind = device.create_bind_group(layout=cp.get_bind_group_layout(0), entries=[{"binding": 0, "resource": {"buffer": buf}}])
enc = device.create_command_encoder()
c = enc.begin_compute_pass()
c.set_pipeline(cp)
c.set_bind_group(0, cbind)
c.dispatch_workgroups(4)
c.end()
device.queue.submit([enc.finish()])
computed = np.frombuffer(device.queue.read_buffer(buf), np.uint32)
np.savez(sys.argv[1], image=image, computed=computed)
print("OK")
