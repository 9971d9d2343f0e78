// GLSL 1.10 (no #version): fixed-function state and compatibility attributes.
uniform float scale;
varying vec3 normal_eye;
varying vec4 color;

void main() {
    normal_eye = gl_NormalMatrix * gl_Normal;
    vec4 lit = gl_FrontMaterial.diffuse * gl_LightSource[0].diffuse
             * max(dot(normal_eye, normalize(gl_LightSource[0].position.xyz)), 0.0);
    color = gl_Color * lit + gl_FrontLightModelProduct.sceneColor;
    gl_FrontColor = color;
    gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
    gl_TexCoord[1] = gl_MultiTexCoord7 * scale;
    gl_FogFragCoord = gl_Fog.start + gl_FogCoord;
    gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;
    gl_Position = ftransform() + gl_ModelViewProjectionMatrix * gl_Vertex * 0.0;
    gl_PointSize = gl_Point.size + float(gl_MaxLights) + gl_DepthRange.far;
}
