# test/layers.cmake — the layer test: src/ files include and call only their
# own folder, lower layers and include/, with no circles between files
# (test/check_layers.py; the layer order is the table at its top). The
# object list comes from the library targets themselves, so a new file is
# checked the moment it is built.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(_layer_objects "$<TARGET_OBJECTS:desert_objects>")
if(TARGET desert_json)
  set(_layer_objects "${_layer_objects};$<TARGET_OBJECTS:desert_json>")
endif()
file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/layer_objects.txt"
  CONTENT "$<JOIN:${_layer_objects},\n>\n")
add_test(NAME layers COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.py
  --src ${PROJECT_SOURCE_DIR}/src --objects ${CMAKE_CURRENT_BINARY_DIR}/layer_objects.txt
  --nm ${CMAKE_NM})
add_test(NAME layers_selftest COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.py
  --selftest --nm ${CMAKE_NM} --cc ${CMAKE_C_COMPILER})
set_tests_properties(layers layers_selftest PROPERTIES LABELS "hygiene" TIMEOUT 120)
