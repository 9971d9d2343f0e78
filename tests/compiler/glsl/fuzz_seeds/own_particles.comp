#version 430
layout(local_size_x = 64) in;
struct Particle {
    vec4 pos;
    vec4 vel;
};
layout(std430, binding = 0) buffer Particles {
    Particle particles[];
};
layout(std430, binding = 1) buffer Stats {
    uint alive;
    float max_speed;
};
uniform float dt;
uniform vec3 gravity;
shared float speeds[64];

void main() {
    uint id = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    Particle p = particles[id];
    p.vel.xyz += gravity * dt;
    p.pos.xyz += p.vel.xyz * dt;
    if (p.pos.y < 0.0) {
        p.pos.y = -p.pos.y;
        p.vel.y = -p.vel.y * 0.5;
    }
    particles[id] = p;
    speeds[lid] = length(p.vel.xyz);
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (lid < s)
            speeds[lid] = max(speeds[lid], speeds[lid + s]);
        barrier();
    }
    if (lid == 0u) {
        atomicAdd(alive, 1u);
        max_speed = speeds[0];
    }
}
