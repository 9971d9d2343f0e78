"""moderngl, unchanged, on EGL (glcontext's EGL backend: device enumeration,
EGL_EXT_platform_device, a 4.3 core context): a colour-interpolated triangle
into a 64x64 framebuffer and a compute shader squaring 256 numbers.

    python moderngl_egl.py OUT.npz      # writes the image and the compute result

Prints the renderer and "OK"."""

import sys

import moderngl
import numpy as np

ctx = moderngl.create_standalone_context(backend="egl", require=430)
print("renderer", ctx.info["GL_RENDERER"], "version", ctx.version_code)
assert ctx.version_code >= 430
# ctx.info asks for every limit moderngl knows; one the driver lacks leaves
# GL_INVALID_ENUM, which is not this test's subject: reset the error here
print("error after ctx.info", ctx.error)

prog = ctx.program(
    vertex_shader="""
        #version 430
        in vec2 in_pos;
        in vec3 in_color;
        out vec3 color;
        void main() { gl_Position = vec4(in_pos, 0.0, 1.0); color = in_color; }
    """,
    fragment_shader="""
        #version 430
        in vec3 color;
        out vec4 frag;
        void main() { frag = vec4(color, 1.0); }
    """)
vertices = np.array([-0.8, -0.8, 1, 0, 0,
                     0.8, -0.8, 0, 1, 0,
                     0.0, 0.8, 0, 0, 1], "f4")
vao = ctx.vertex_array(prog, [(ctx.buffer(vertices.tobytes()), "2f 3f", "in_pos", "in_color")])
fbo = ctx.simple_framebuffer((64, 64))
fbo.use()
fbo.clear(0.1, 0.1, 0.1, 1.0)
vao.render(moderngl.TRIANGLES)
image = np.frombuffer(fbo.read(components=4), np.uint8).reshape(64, 64, 4)

compute = ctx.compute_shader("""
    #version 430
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer Data { float v[]; };
    void main() { uint i = gl_GlobalInvocationID.x; v[i] = v[i] * v[i] + 1.0; }
""")
data = ctx.buffer(np.arange(256, dtype="f4").tobytes())
data.bind_to_storage_buffer(0)
compute.run(group_x=4)
result = np.frombuffer(data.read(), "f4")
expected = np.arange(256, dtype="f4") ** 2 + 1
assert np.array_equal(result, expected), result[:8]
assert ctx.error == "GL_NO_ERROR", ctx.error
if len(sys.argv) > 1:
    np.savez(sys.argv[1], image=image, compute=result)
print("OK")
