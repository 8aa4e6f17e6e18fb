# CTest: every tests/test_<name>.cpp keeps its code in `namespace test_<name> { … }`, so that in
# a unity build (CMakeLists.txt) no helper, alias or using-directive of one test file reaches the
# files after it in its batch, where it could clash or, worse, win an overload quietly.
# Run as: cmake -DSOURCE_DIR=<repo> -P cmake/check_test_namespaces.cmake
cmake_minimum_required(VERSION 3.22)

file(GLOB files ${SOURCE_DIR}/tests/test_*.cpp)
set(violations "")
foreach(file IN LISTS files)
  get_filename_component(stem ${file} NAME_WE)
  file(READ ${file} text)
  file(RELATIVE_PATH shown ${SOURCE_DIR} ${file})
  # After the includes, the file's own namespace opens before any code and closes it last.
  string(REGEX REPLACE "^.*\n#include[^\n]*\n" "" after_includes "${text}")
  string(STRIP "${after_includes}" after_includes)
  if(NOT after_includes MATCHES "^namespace ${stem} {\n")
    list(APPEND violations "${shown}: code after the includes must open `namespace ${stem} {`")
  elseif(NOT after_includes MATCHES "\n}  // namespace ${stem}$")
    list(APPEND violations "${shown}: must end with `}  // namespace ${stem}`")
  endif()
endforeach()
list(LENGTH files checked)
if(violations)
  list(LENGTH violations count)
  string(REPLACE ";" "\n  " shown "${violations}")
  message(FATAL_ERROR "${count} test file(s) outside their own namespace:\n  ${shown}")
endif()
message(STATUS "${checked} test files, each in its own namespace")
