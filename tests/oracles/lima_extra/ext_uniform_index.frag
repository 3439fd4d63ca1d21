#version 100
precision mediump float;
uniform vec4 u_arr[4];
varying float v_i;
void main() { gl_FragColor = u_arr[int(clamp(v_i, 0.0, 3.0))]; }
