/* status.c: names of status codes and their misuse/run-time split */
#include "internal.h"

const char *domino_status_name(domino_status s)
{
    switch (s) {
    case DOMINO_SUCCESS: return "DOMINO_SUCCESS";
    case DOMINO_NULL_POINTER: return "DOMINO_NULL_POINTER";
    case DOMINO_INVALID_VALUE: return "DOMINO_INVALID_VALUE";
    case DOMINO_DIMENSION_MISMATCH: return "DOMINO_DIMENSION_MISMATCH";
    case DOMINO_INVALID_OBJECT: return "DOMINO_INVALID_OBJECT";
    case DOMINO_BAD_INPUT: return "DOMINO_BAD_INPUT";
    case DOMINO_ZERO_DIAGONAL: return "DOMINO_ZERO_DIAGONAL";
    case DOMINO_ZERO_PIVOT: return "DOMINO_ZERO_PIVOT";
    case DOMINO_OUT_OF_MEMORY: return "DOMINO_OUT_OF_MEMORY";
    case DOMINO_IO_ERROR: return "DOMINO_IO_ERROR";
    case DOMINO_DEVICE_ERROR: return "DOMINO_DEVICE_ERROR";
    case DOMINO_NOT_SUPPORTED: return "DOMINO_NOT_SUPPORTED";
    case DOMINO_TIMEOUT: return "DOMINO_TIMEOUT";
    }
    return "DOMINO_UNKNOWN_STATUS";
}

int domino_status_is_misuse(domino_status s)
{
    return s < 0 && s > -100;
}

size_t domino_type_size(domino_type t)
{
    return t == DOMINO_FLOAT32 ? sizeof(float) : sizeof(double);
}

double domino_type_eps(domino_type t)
{
    return t == DOMINO_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
}
