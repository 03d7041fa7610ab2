#version 330 core
in vec3 vColor;
uniform int uRoundPoints;
out vec4 fragColor;

void main() {
  if (uRoundPoints != 0) {
    vec2 offset = gl_PointCoord - vec2(0.5);
    if (dot(offset, offset) > 0.25) discard;
  }
  fragColor = vec4(vColor, 1.0);
}
