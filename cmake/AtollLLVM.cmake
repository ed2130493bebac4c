# How targets get LLVM. Default: the shared libLLVM (fast links). With
# ATOLL_LLVM_STATIC=ON the components are linked statically, so that only
# libatoll_runtime carries LLVM and GPU hosts need no LLVM installed.
set(ATOLL_LLVM_COMPONENTS
  core support irreader irprinter bitreader bitwriter linker passes analysis
  transformutils ipo scalaropts instcombine target codegen mc
  nvptxcodegen nvptxdesc nvptxinfo)

add_library(atoll_llvm_headers INTERFACE)
target_include_directories(atoll_llvm_headers SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
separate_arguments(ATOLL_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_definitions(atoll_llvm_headers INTERFACE ${ATOLL_LLVM_DEFINITIONS})

function(atoll_link_llvm target)
  target_link_libraries(${target} PRIVATE atoll_llvm_headers)
  if(ATOLL_LLVM_STATIC)
    llvm_map_components_to_libnames(libs ${ATOLL_LLVM_COMPONENTS})
    target_link_libraries(${target} PRIVATE ${libs})
    # Keep LLVM's symbols private to the library that carries it.
    target_link_options(${target} PRIVATE "LINKER:--exclude-libs,ALL")
  else()
    target_link_libraries(${target} PRIVATE LLVM)
  endif()
endfunction()
