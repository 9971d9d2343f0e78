#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in ivec4 joints;
layout(location = 3) in vec4 weights;
layout(std140) uniform Skin {
    mat4 bones[16];
};
uniform mat4 view_proj;
uniform mat3 normal_matrix;
out vec3 v_normal;
out float v_depth;

mat4 skin_matrix() {
    mat4 m = mat4(0.0);
    for (int i = 0; i < 4; i++)
        m += bones[joints[i]] * weights[i];
    return m;
}

void main() {
    mat4 s = skin_matrix();
    vec4 world = s * vec4(position, 1.0);
    v_normal = normal_matrix * mat3(s) * normal;
    gl_Position = view_proj * world;
    v_depth = gl_Position.z / gl_Position.w;
}
