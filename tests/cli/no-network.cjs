// Preloaded into CLI runs that must work on an air-gapped machine: any attempt to open a socket or
// resolve a name fails loudly, so a test proves the command never touches the network.
const net = require('node:net')
const dgram = require('node:dgram')
const dns = require('node:dns')

function refuse(what) {
  return function () {
    throw new Error(`network access attempted (${what}) in an offline command`)
  }
}

net.Socket.prototype.connect = refuse('net.Socket.connect')
dgram.Socket.prototype.send = refuse('dgram.send')
dns.lookup = refuse('dns.lookup')
dns.resolve = refuse('dns.resolve')
