#version 120
void main() {
    gl_Position = ftransform();
    vec3 n = normalize(gl_NormalMatrix * gl_Normal);
    vec3 L = normalize(gl_LightSource[0].position.xyz);
    float nl = dot(n, L);
    vec4 c = gl_Color * (gl_LightModel.ambient + gl_LightSource[0].ambient)
           + max(nl, 0.0) * gl_Color * gl_LightSource[0].diffuse;
    if (nl > 0.0)
        c.rgb += pow(max(dot(n, gl_LightSource[0].halfVector.xyz), 0.0), gl_FrontMaterial.shininess)
                 * gl_FrontLightProduct[0].specular.rgb;
    gl_FrontColor = clamp(vec4(c.rgb, gl_Color.a), 0.0, 1.0);
}
