#version 100
precision mediump float;
varying vec4 a;
void main() {
  bool p = a.x > 0.0; bool q = a.y > 0.0;
  vec4 r = vec4(float(p && q), float(p || q), float(p ^^ q), float(!p));
  r += vec4(float(r.x != 0.0 && r.y != 0.0), float(r.y != 0.0), float(r.z != 0.0 && r.y != 0.0), float(r.w != 0.0 && r.y != 0.0));
  gl_FragColor = r;
}
