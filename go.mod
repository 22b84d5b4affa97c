module github.com/tvla-go/tvla

go 1.26

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/emicklei/dot v1.6.2
	github.com/mitchellh/hashstructure/v2 v2.0.2
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
)

require github.com/inconshreveable/mousetrap v1.1.0 // indirect
