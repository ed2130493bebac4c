include(CMakePackageConfigHelpers)

install(DIRECTORY include/atoll DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS atoll_headers atoll_runtime EXPORT AtollTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS AtollPasses LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS atoll-harden RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT AtollTargets NAMESPACE Atoll:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Atoll)

configure_package_config_file(cmake/AtollConfig.cmake.in
  "${PROJECT_BINARY_DIR}/AtollConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Atoll
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/AtollConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/AtollConfig.cmake" "${PROJECT_BINARY_DIR}/AtollConfigVersion.cmake"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Atoll)
