#include <iostream>

#include "manager/descheduler/app/descheduler_app.hpp"

int main(int argc, char** argv) {
  return koord::manager::descheduler::app::runDescheduler(argc, argv, std::cout, std::cerr);
}
