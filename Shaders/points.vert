#version 330 core
// One point of the cloud. Colour modes and the confidence filter are uniforms, so
// changing them never re-uploads a point.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColorConfidence;  // rgb in 0..1, confidence * (1/255)
layout(location = 2) in float aIntensity;  // grey level in 0..1 (a flat grey without one)

uniform mat4 uViewProjection;
uniform mat4 uView;
uniform mat4 uWorldFromStored;  // this draw's model transform (a frame's pose correction)
uniform float uPointSizePixels;
uniform int uColorMode;  // 0 rgb, 1 height, 2 depth, 3 confidence, 4 frame, 5 error, 6 intensity
uniform int uMinConfidence;   // points below are dropped; 255 ("no map") always passes
uniform vec3 uUpAxis;         // world up, unit length
uniform vec2 uHeightRange;    // metres along uUpAxis mapped to the ramp's ends
uniform vec2 uDepthRange;     // view distance in metres mapped to the ramp's ends
uniform int uBaseIndex;       // index in the whole cloud of this buffer's first point
uniform isamplerBuffer uFrameStarts;  // first point index of each frame
uniform int uFrameCount;
uniform int uFixedFrame;       // >= 0: the frame of every point of this draw
uniform float uDimmed;        // 1 draws the points darkened (previews)
uniform samplerBuffer uFrameErrors;  // each frame's alignment error, metres; < 0 not measured
uniform float uErrorScaleMeters;     // the error at the red end of the ramp

out vec3 vColor;

#include "ramp.glsl"

// The frame a point belongs to: the last frame whose first point is at or before it.
int frameOf(int pointIndex) {
  int low = 0;
  int high = uFrameCount - 1;
  while (low < high) {
    int middle = (low + high + 1) / 2;
    if (texelFetch(uFrameStarts, middle).r <= pointIndex) low = middle; else high = middle - 1;
  }
  return low;
}

void main() {
  int confidence = int(aColorConfidence.a * 255.0 + 0.5);
  if (confidence != 255 && confidence < uMinConfidence) {
    // Outside the clip volume: the point is not drawn.
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 1.0;
    vColor = vec3(0.0);
    return;
  }
  vec4 world = uWorldFromStored * vec4(aPosition, 1.0);
  gl_Position = uViewProjection * world;
  gl_PointSize = uPointSizePixels;

  vec3 color = aColorConfidence.rgb;
  if (uColorMode == 1) {
    float h = dot(world.xyz, uUpAxis);
    color = ramp((h - uHeightRange.x) / max(uHeightRange.y - uHeightRange.x, 1e-6));
  } else if (uColorMode == 2) {
    float d = -(uView * world).z;
    color = ramp((d - uDepthRange.x) / max(uDepthRange.y - uDepthRange.x, 1e-6));
  } else if (uColorMode == 3) {
    if (confidence == 0) color = vec3(0.90, 0.20, 0.15);
    else if (confidence == 1) color = vec3(0.95, 0.80, 0.15);
    else if (confidence == 2) color = vec3(0.20, 0.80, 0.30);
    else color = vec3(0.75, 0.75, 0.75);
  } else if (uColorMode == 4) {
    int frame = uFixedFrame >= 0 ? uFixedFrame : frameOf(uBaseIndex + gl_VertexID);
    color = ramp(uFrameCount > 1 ? float(frame) / float(uFrameCount - 1) : 0.0);
  } else if (uColorMode == 5) {
    int frame = uFixedFrame >= 0 ? uFixedFrame : frameOf(uBaseIndex + gl_VertexID);
    float error = texelFetch(uFrameErrors, frame).r;
    color = error < 0.0 ? vec3(0.45) : ramp(error / uErrorScaleMeters);
  } else if (uColorMode == 6) {
    color = vec3(aIntensity);
  }
  vColor = mix(color, color * 0.25, uDimmed);
}
