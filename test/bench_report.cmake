# test/bench_report.cmake — bench/report.py's judgement of rows against
# their peers (test/scripts/report_peers.py): a synthetic benchmark JSON
# with chosen medians and spreads, the sentences naming rows a peer beat
# beyond the run's spread and within it; and section 3e, the Python
# package's rows and targets (test/scripts/report_python.py). Included by
# test/CMakeLists.txt (every test/*.cmake is).
# SPDX-License-Identifier: MIT
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME bench_report_peers COMMAND Python3::Interpreter
  ${CMAKE_CURRENT_SOURCE_DIR}/scripts/report_peers.py ${PROJECT_SOURCE_DIR}/bench/report.py)
set_tests_properties(bench_report_peers PROPERTIES LABELS "hygiene" TIMEOUT 60)
# Section 3e and the Python package's targets from python/bench/bench.py's
# JSON (test/scripts/report_python.py).
add_test(NAME bench_report_python COMMAND Python3::Interpreter
  ${CMAKE_CURRENT_SOURCE_DIR}/scripts/report_python.py ${PROJECT_SOURCE_DIR}/bench/report.py)
set_tests_properties(bench_report_python PROPERTIES LABELS "hygiene" TIMEOUT 60)
