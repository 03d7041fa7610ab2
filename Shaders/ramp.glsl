// Blue (near, low, early) through cyan, green and yellow to red.
vec3 ramp(float t) {
  t = clamp(t, 0.0, 1.0);
  vec3 c0 = vec3(0.15, 0.25, 0.95);
  vec3 c1 = vec3(0.10, 0.80, 0.95);
  vec3 c2 = vec3(0.20, 0.85, 0.25);
  vec3 c3 = vec3(0.98, 0.85, 0.15);
  vec3 c4 = vec3(0.92, 0.18, 0.12);
  float s = t * 4.0;
  if (s < 1.0) return mix(c0, c1, s);
  if (s < 2.0) return mix(c1, c2, s - 1.0);
  if (s < 3.0) return mix(c2, c3, s - 2.0);
  return mix(c3, c4, s - 3.0);
}
