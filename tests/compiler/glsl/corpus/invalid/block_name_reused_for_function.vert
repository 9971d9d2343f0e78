// EXPECT: 0:6(1): error: `Light' is already the name of an interface block
#version 150
out Light {
    vec3 dir;
} light;
vec3 Light(vec3 x) { return x; }
void main() { light.dir = Light(vec3(1.0)); gl_Position = vec4(0.0); }
