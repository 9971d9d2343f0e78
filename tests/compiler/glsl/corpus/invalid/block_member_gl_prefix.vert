// EXPECT: 0:4(10): error: identifier `gl_Normalish' uses reserved `gl_' prefix
#version 150
out Surface {
    vec3 gl_Normalish;
} s[2];
void main() { gl_Position = vec4(0.0); }
