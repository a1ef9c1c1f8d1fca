import CheckrunCLI
CheckrunCLI.main()
