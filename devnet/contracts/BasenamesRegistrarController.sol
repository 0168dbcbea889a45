// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {DevnetPriceOracle} from "./DevnetPriceOracle.sol";

interface IBasenamesRegistrar {
    function registerWithRecord(uint256 id, address owner, uint256 duration, address resolver, uint64 ttl) external returns (uint256);
    function renew(uint256 id, uint256 duration) external returns (uint256);
    function isAvailable(uint256 id) external view returns (bool);
}

/// Basenames' controllers (early access, regular, upgradeable) share this shape and these events, none of which
/// carries a price: registration without commit/reveal, records written through a resolver that trusts the
/// controller, renewals (`renewable` false for the early-access controller, which on mainnet only registered).
contract BasenamesRegistrarController {
    uint256 public constant MIN_REGISTRATION_DURATION = 365 days;

    event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires);
    event NameRenewed(string name, bytes32 indexed label, uint256 expires);

    IBasenamesRegistrar public immutable base;
    DevnetPriceOracle public immutable prices;
    bytes32 public immutable rootNode;
    bool public immutable renewable;

    constructor(IBasenamesRegistrar base_, DevnetPriceOracle prices_, bytes32 rootNode_, bool renewable_) {
        base = base_;
        prices = prices_;
        rootNode = rootNode_;
        renewable = renewable_;
    }

    function registerPrice(string calldata name, uint256 duration) public view returns (uint256) {
        (uint256 b, uint256 p) = prices.price(name, 0, duration);
        return b + p;
    }

    function available(string calldata name) public view returns (bool) {
        return prices.strlen(name) >= 3 && base.isAvailable(uint256(keccak256(bytes(name))));
    }

    /// `data` are resolver calls (e.g. setAddr, setText) for the new name, as with mainnet's RegisterRequest.
    function register(string calldata name, address owner, uint256 duration, address resolver, bytes[] calldata data) external payable {
        require(available(name), "name unavailable");
        require(duration >= MIN_REGISTRATION_DURATION, "duration too short");
        require(data.length == 0 || resolver != address(0), "resolver required with data");
        _charge(registerPrice(name, duration));
        bytes32 label = keccak256(bytes(name));
        uint256 expires = base.registerWithRecord(uint256(label), owner, duration, resolver, 0);
        for (uint256 i = 0; i < data.length; i++) {
            bytes32 node = keccak256(abi.encodePacked(rootNode, label));
            require(bytes32(data[i][4:36]) == node, "record call for another node");
            (bool ok,) = resolver.call(data[i]);
            require(ok, "record call failed");
        }
        emit NameRegistered(name, label, owner, expires);
    }

    function renew(string calldata name, uint256 duration) external payable {
        require(renewable, "renewals closed");
        (uint256 b,) = prices.price(name, 0, duration);
        _charge(b);
        bytes32 label = keccak256(bytes(name));
        uint256 expires = base.renew(uint256(label), duration);
        emit NameRenewed(name, label, expires);
    }

    function _charge(uint256 cost) private {
        require(msg.value >= cost, "insufficient value");
        if (msg.value > cost) payable(msg.sender).transfer(msg.value - cost);
    }
}
