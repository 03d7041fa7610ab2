#version 330 core
noperspective in vec3 vColor;
out vec4 fragColor;

void main() {
  // Alpha 1 marks the pixel as scene, as points do, for eye-dome lighting.
  fragColor = vec4(vColor, 1.0);
}
