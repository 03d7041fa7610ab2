#version 330 core
// One vertex of a mesh, coloured as MeshShading says: its colour (or the ramp in the
// height and depth modes), lit by a light at the eye, both faces alike.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec4 aColor;

uniform mat4 uViewProjection;
uniform mat4 uView;
uniform int uColorMode;       // 1 height, 2 depth; any other: the vertex colour
uniform vec3 uUpAxis;
uniform vec2 uHeightRange;
uniform vec2 uDepthRange;
uniform float uAmbient;

// Interpolated in window space, as the CPU rasterizer does.
noperspective out vec3 vColor;

#include "ramp.glsl"

void main() {
  gl_Position = uViewProjection * vec4(aPosition, 1.0);
  vec3 eye = (uView * vec4(aPosition, 1.0)).xyz;
  vec3 base = aColor.rgb;
  if (uColorMode == 1) {
    float h = dot(aPosition, uUpAxis);
    base = ramp((h - uHeightRange.x) / max(uHeightRange.y - uHeightRange.x, 1e-6));
  } else if (uColorMode == 2) {
    base = ramp((-eye.z - uDepthRange.x) / max(uDepthRange.y - uDepthRange.x, 1e-6));
  }
  vec3 normal = mat3(uView) * aNormal;
  float lengths = dot(normal, normal) * dot(eye, eye);
  float facing = lengths > 0.0 ? abs(dot(normal, eye)) / sqrt(lengths) : 1.0;
  vColor = base * (uAmbient + (1.0 - uAmbient) * facing);
}
