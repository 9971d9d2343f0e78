#version 300 es
layout(location = 0) in vec3 position;
layout(location = 1) in uvec2 ids;
uniform Transforms {
    mat4 mvp;
    mat3x4 extra;
} xf;
flat out uint v_id;
out vec3 v_pos;
smooth out float v_depth;
invariant gl_Position;

void main() {
    v_id = ids.x ^ (ids.y << 1u);
    v_pos = position;
    mat2x3 m = mat2x3(1.0);
    v_depth = (m * vec2(1.0, 2.0)).z + float(gl_VertexID + gl_InstanceID);
    gl_Position = xf.mvp * vec4(position, 1.0);
}
