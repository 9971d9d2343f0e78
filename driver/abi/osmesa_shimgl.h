/* osmesa_shimgl.h - shimgl's extension of the OSMesa API: OpenGL ES contexts.
 *
 * Mesa's OSMesa creates desktop GL contexts only. shimgl's libOSMesa.so.8 also
 * creates OpenGL ES contexts when OSMesaCreateContextAttribs is given
 *
 *     OSMESA_PROFILE, OSMESA_ES_PROFILE_SHIMGL,
 *     OSMESA_CONTEXT_MAJOR_VERSION, M, OSMESA_CONTEXT_MINOR_VERSION, m
 *
 * where M.m is an OpenGL ES version: 1.0 or 1.1 give an OpenGL ES 1.1 (common
 * profile) context, 2.0, 3.0, 3.1 and 3.2 an OpenGL ES 3.2 context (the newest
 * backward-compatible version, as EGL_KHR_create_context allows). Without a
 * version the request is ES 1.0, as EGL's EGL_CONTEXT_CLIENT_VERSION defaults
 * to 1. Any other version (ES 2.1, 4.0, ...) gives NULL and one line on stderr
 * saying why. Everything else (formats, OSMesaMakeCurrent, the buffers) is as
 * for desktop contexts; a sharelist context must be of the same API (desktop
 * GL or ES), else NULL.
 *
 * The token's value cannot collide with Mesa's osmesa.h, whose OSMESA_*
 * values are below 0x100 or GL enums; this file defines nothing else, so it
 * may be included after Mesa's osmesa.h. The file lives beside libshimgl.so
 * (driver/abi/ of the installed package); compile with -I that directory. */
#ifndef OSMESA_SHIMGL_H
#define OSMESA_SHIMGL_H

#define OSMESA_ES_PROFILE_SHIMGL 0x53474553

#endif
