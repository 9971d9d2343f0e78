#version 430
    uniform samplerBuffer t; out vec4 color;
    void main(){ color = texelFetch(t, int(gl_FragCoord.x)); }