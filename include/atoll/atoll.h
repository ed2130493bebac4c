// libatoll_runtime: software fault isolation for many tenants in one CUDA context.
// This umbrella header is all a host service needs (link with -latoll_runtime).
// See docs/runtime-api.md.
#pragma once

#include "atoll/abi.h"
#include "atoll/application.h"
#include "atoll/buffer.h"
#include "atoll/error.h"
#include "atoll/launch.h"
#include "atoll/pipeline.h"
#include "atoll/runtime.h"
