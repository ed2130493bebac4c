# atoll_cuda_bitcode(<out-var> SOURCES a.cu ... [FLAGS ...] [DESTINATION dir])
# Compiles CUDA device code to LLVM bitcode with clang-22, as a tenant would:
#   clang++ -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -emit-llvm
set(ATOLL_CUDA_BITCODE_FLAGS
  -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=${ATOLL_CUDA_PATH}
  -O2 -emit-llvm -c -Wno-unknown-cuda-version -std=c++17)

function(atoll_cuda_bitcode out_var)
  cmake_parse_arguments(ARG "" "DESTINATION" "SOURCES;FLAGS" ${ARGN})
  if(NOT ARG_DESTINATION)
    set(ARG_DESTINATION "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(outputs)
  foreach(src ${ARG_SOURCES})
    get_filename_component(name "${src}" NAME_WE)
    get_filename_component(abs "${src}" ABSOLUTE)
    set(out "${ARG_DESTINATION}/${name}.bc")
    add_custom_command(OUTPUT "${out}"
      COMMAND ${ATOLL_CLANG} ${ATOLL_CUDA_BITCODE_FLAGS} ${ARG_FLAGS} "${abs}" -o "${out}"
      DEPENDS "${abs}"
      COMMENT "CUDA -> bitcode ${name}.cu"
      VERBATIM)
    list(APPEND outputs "${out}")
  endforeach()
  set(${out_var} ${outputs} PARENT_SCOPE)
endfunction()
